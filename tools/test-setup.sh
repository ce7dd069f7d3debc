#!/usr/bin/env bash
# Start the real services the functional tests need (when they are down)
# and create the test accounts. Idempotent. With CI=true any service that
# cannot be started is a failure; otherwise it is reported and we go on.
set -u

log() { printf 'test-setup: %s\n' "$*"; }
missing=()

port_open() {  # host port
    (exec 3<>"/dev/tcp/$1/$2") 2>/dev/null && exec 3>&- 3<&-
}

wait_port() {  # name host port seconds
    local i
    for ((i = 0; i < $4 * 2; i++)); do
        port_open "$2" "$3" && return 0
        sleep 0.5
    done
    return 1
}

ensure_service() {  # name host port seconds start-command...
    local name=$1 host=$2 port=$3 wait=$4
    shift 4
    if port_open "$host" "$port"; then
        log "$name is up on $host:$port"
        return 0
    fi
    log "$name is down; starting: $*"
    if ! "$@" >/tmp/test-setup-"$name".log 2>&1; then
        log "starting $name failed: $(tail -n 5 /tmp/test-setup-"$name".log)"
    fi
    if wait_port "$name" "$host" "$port" "$wait"; then
        log "$name is up on $host:$port"
    else
        log "ERROR: $name is not answering on $host:$port after ${wait}s"
        missing+=("$name")
    fi
}

start_postgresql() {
    pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql)" main start
}
start_mariadb() {
    start-stop-daemon --start --oknodo --background --exec /usr/sbin/mariadbd
}
start_rabbitmq() { rabbitmq-server -detached; }
start_redis() {
    redis-server --daemonize yes --bind 127.0.0.1 -::1 --port 6379 \
        --save "" --appendonly no --dir /var/lib/redis \
        --logfile /var/log/redis/ci.log
}

ensure_service postgresql 127.0.0.1 5432 60 start_postgresql
ensure_service mariadb 127.0.0.1 3306 60 start_mariadb
ensure_service rabbitmq 127.0.0.1 5672 90 start_rabbitmq
ensure_service redis 127.0.0.1 6379 30 start_redis

# oslo.db's opportunistic fixtures provision throw-away databases through
# an account named openstack_citest on each server.
if [[ ! " ${missing[*]} " =~ " mariadb " ]]; then
    mysql -uroot -h127.0.0.1 <<'SQL' || missing+=("mariadb-citest-account")
CREATE USER IF NOT EXISTS 'openstack_citest'@'localhost' IDENTIFIED BY 'openstack_citest';
CREATE USER IF NOT EXISTS 'openstack_citest'@'127.0.0.1' IDENTIFIED BY 'openstack_citest';
CREATE USER IF NOT EXISTS 'openstack_citest'@'%' IDENTIFIED BY 'openstack_citest';
GRANT ALL PRIVILEGES ON *.* TO 'openstack_citest'@'localhost';
GRANT ALL PRIVILEGES ON *.* TO 'openstack_citest'@'127.0.0.1';
GRANT ALL PRIVILEGES ON *.* TO 'openstack_citest'@'%';
CREATE DATABASE IF NOT EXISTS openstack_citest;
FLUSH PRIVILEGES;
SQL
    log "mariadb: account openstack_citest ready"
fi
if [[ ! " ${missing[*]} " =~ " postgresql " ]]; then
    psql_admin() { psql -h 127.0.0.1 -U postgres -v ON_ERROR_STOP=1 -qtA "$@"; }
    if ! psql_admin -c "SELECT 1 FROM pg_roles WHERE rolname='openstack_citest'" | grep -q 1; then
        psql_admin -c "CREATE ROLE openstack_citest WITH LOGIN CREATEDB SUPERUSER PASSWORD 'openstack_citest'" \
            || missing+=("postgresql-citest-account")
    fi
    if ! psql_admin -c "SELECT 1 FROM pg_database WHERE datname='openstack_citest'" | grep -q 1; then
        psql_admin -c "CREATE DATABASE openstack_citest OWNER openstack_citest" \
            || missing+=("postgresql-citest-database")
    fi
    log "postgresql: account openstack_citest ready"
fi

# Wait for another apt/dpkg (an unattended upgrade, a second run of this
# script) to release its lock instead of failing at once.
apt_get() {
    apt-get -o DPkg::Lock::Timeout=600 "$@"
}
apt_update_once() {
    if [[ -z "${APT_UPDATED:-}" ]]; then
        apt_get update -qq && APT_UPDATED=1
    fi
}

# Debian's kubectl (kubernetes-client 1.20) for the Kubernetes simulator's
# tests (tools/simcloud/k8s). Another package may own /usr/bin/kubectl
# (e.g. google-cloud-cli's "kubectl"): divert its file aside so Debian's
# package can install, instead of overwriting it.
ensure_kubectl() {
    if dpkg-query -W -f='${Status}' kubernetes-client 2>/dev/null \
        | grep -q "ok installed"; then
        log "kubectl: $(kubectl version --client --short 2>/dev/null)"
        return 0
    fi
    local owner
    owner=$(dpkg-query -S /usr/bin/kubectl 2>/dev/null | grep -v '^diversion' \
        | cut -d: -f1 | head -n 1)
    if [[ -n "$owner" && "$owner" != "kubernetes-client" ]] \
        && [[ -z "$(dpkg-divert --listpackage /usr/bin/kubectl)" ]]; then
        log "kubectl: diverting $owner's /usr/bin/kubectl to /usr/bin/kubectl.$owner"
        dpkg-divert --package kubernetes-client --rename \
            --divert "/usr/bin/kubectl.$owner" --add /usr/bin/kubectl
    fi
    apt_update_once
    if DEBIAN_FRONTEND=noninteractive apt_get install -y -qq \
        kubernetes-client >/tmp/test-setup-kubectl.log 2>&1; then
        log "kubectl: installed $(kubectl version --client --short 2>/dev/null)"
    else
        log "ERROR: apt-get install kubernetes-client failed: $(tail -n 3 /tmp/test-setup-kubectl.log)"
        missing+=("kubectl")
    fi
}
ensure_kubectl

# Debian's OpenSSH server for the SSH test hosts (tools/testvms): each
# test starts its own sshd in a network namespace; none is started here.
ensure_sshd() {
    if [[ -x /usr/sbin/sshd ]]; then
        log "sshd: $(/usr/sbin/sshd -V 2>&1 | head -n 1)"
        return 0
    fi
    apt_update_once
    if DEBIAN_FRONTEND=noninteractive apt_get install -y -qq \
        openssh-server >/tmp/test-setup-sshd.log 2>&1; then
        log "sshd: installed openssh-server"
    else
        log "ERROR: apt-get install openssh-server failed: $(tail -n 3 /tmp/test-setup-sshd.log)"
        missing+=("openssh-server")
    fi
}
ensure_sshd

# Debian's etcd and HAProxy for the master VMs of the k8s_cluster tests
# (tools/testvms): the sample's scripts start them inside each VM's
# network namespace. The packages' own system-wide services must not run
# on this host (they would take ports 2379/2380 and the HAProxy ports): a
# policy-rc.d forbids starting them during the install, and they are
# stopped and disabled afterwards when systemd manages this host.
ensure_etcd_haproxy() {
    local pkgs=() policy=/usr/sbin/policy-rc.d made_policy=""
    command -v etcd >/dev/null || pkgs+=(etcd-server)
    command -v etcdctl >/dev/null || pkgs+=(etcd-client)
    [[ -x /usr/sbin/haproxy ]] || pkgs+=(haproxy)
    if ((${#pkgs[@]} == 0)); then
        log "etcd: $(etcd --version | head -n 1); haproxy: $(/usr/sbin/haproxy -v | head -n 1)"
        return 0
    fi
    if [[ ! -e $policy ]]; then
        printf '#!/bin/sh\nexit 101\n' >"$policy" && chmod 755 "$policy" && made_policy=1
    fi
    apt_update_once
    if DEBIAN_FRONTEND=noninteractive apt_get install -y -qq "${pkgs[@]}" \
        >/tmp/test-setup-etcd-haproxy.log 2>&1; then
        log "installed ${pkgs[*]} (services not started)"
    else
        log "ERROR: apt-get install ${pkgs[*]} failed: $(tail -n 3 /tmp/test-setup-etcd-haproxy.log)"
        missing+=("${pkgs[@]}")
        required_failed=1
    fi
    [[ -n $made_policy ]] && rm -f "$policy"
    if [[ -d /run/systemd/system ]]; then
        systemctl disable --now etcd haproxy >/dev/null 2>&1 || true
    fi
}
required_failed=""
ensure_etcd_haproxy

# Debian's Prometheus server and node exporter for the performance
# management tests: every test module starts its own Prometheus on a free
# port with its own configuration (file-based service discovery in a
# scratch folder, tacker_ng/tests/functional/fixtures/prometheus.py) and
# runs node exporters inside test VMs' namespaces (tools/testvms). The
# packages' own services (Prometheus on :9090, the exporter on :9100)
# must not run here: a policy-rc.d forbids starting them during the
# install; with systemd they are also stopped and disabled afterwards.
# No recommends: the exporter's "collectors" recommendation pulls in
# smartmontools, ipmitool and a timer that the tests do not use.
ensure_prometheus() {
    local pkgs=() policy=/usr/sbin/policy-rc.d made_policy=""
    [[ -x /usr/bin/prometheus ]] || pkgs+=(prometheus)
    [[ -x /usr/bin/prometheus-node-exporter ]] || pkgs+=(prometheus-node-exporter)
    if ((${#pkgs[@]} == 0)); then
        log "prometheus: $(/usr/bin/prometheus --version 2>&1 | head -n 1);" \
            "node exporter: $(/usr/bin/prometheus-node-exporter --version 2>&1 | head -n 1)"
        return 0
    fi
    if [[ ! -e $policy ]]; then
        printf '#!/bin/sh\nexit 101\n' >"$policy" && chmod 755 "$policy" && made_policy=1
    fi
    apt_update_once
    if DEBIAN_FRONTEND=noninteractive apt_get install -y -qq \
        --no-install-recommends "${pkgs[@]}" \
        >/tmp/test-setup-prometheus.log 2>&1; then
        log "installed ${pkgs[*]} (services not started)"
    else
        log "ERROR: apt-get install ${pkgs[*]} failed: $(tail -n 3 /tmp/test-setup-prometheus.log)"
        missing+=("${pkgs[@]}")
    fi
    [[ -n $made_policy ]] && rm -f "$policy"
    if [[ -d /run/systemd/system ]]; then
        systemctl disable --now prometheus prometheus-node-exporter \
            >/dev/null 2>&1 || true
    fi
}
ensure_prometheus

# curl and jq run the user guides' console examples (test_user_docs.py).
for tool in curl jq; do
    command -v "$tool" >/dev/null && continue
    apt_update_once
    DEBIAN_FRONTEND=noninteractive apt_get install -y -qq "$tool" \
        >/tmp/test-setup-"$tool".log 2>&1 || missing+=("$tool")
done

if ((${#missing[@]})); then
    log "missing: ${missing[*]}"
    if [[ "${CI:-}" == "true" ]]; then
        log "CI=true: a required service is missing, failing"
        exit 1
    fi
    log "not in CI: functional tests needing them will fail"
    if [[ -n $required_failed ]]; then
        log "ERROR: etcd/HAProxy could not be installed: failing"
        exit 1
    fi
fi
exit 0
