"""``openstack <args>`` through a fork server (forkserver.py --socket).

usage: forkclient.py SOCKET [openstack arguments...]

Hands the server this process's arguments, environment, working
directory, stdin, stdout and stderr, and exits with the command's exit
status: a stand-in for the console script in a shell script, without
its imports. Standard library only: it starts in milliseconds.
"""

import json
import os
import socket
import sys


def main() -> int:
    path, args = sys.argv[1], sys.argv[2:]
    req = json.dumps(
        {"args": args, "env": dict(os.environ), "cwd": os.getcwd()}
    ).encode()
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as conn:
        conn.connect(path)
        socket.send_fds(conn, [len(req).to_bytes(4, "big") + req], [0, 1, 2])
        answer = b""
        while chunk := conn.recv(16):
            answer += chunk
    return int(answer or b"1")


if __name__ == "__main__":
    sys.exit(main())
