# SPDX-License-Identifier: ISC
# terminal.py: run a command on a pseudo-terminal, as a person at a terminal
# runs it, and press Ctrl-C once its output holds a text; for
# tests/t-run.sh.
#
# usage: python3 tests/lib/terminal.py LOG WAIT-FOR SECONDS [CMD-FILE] -- CMD...
#
# The command's output goes to LOG as it comes.  Once it holds WAIT-FOR,
# CMD-FILE (when given and not "-") runs through sh, then Ctrl-C is
# typed (the terminal sends SIGINT to the command's process group, as it
# does to `make run`'s).  Exits with the command's exit status, 124
# when WAIT-FOR did not come within SECONDS or the command did not end
# SECONDS after Ctrl-C (it is killed then), 128+N when a signal N ended it.

import os
import pty
import select
import subprocess
import sys
import time


def main():
    log, want, secs, hook = sys.argv[1], sys.argv[2].encode(), \
        float(sys.argv[3]), sys.argv[4]
    cmd = sys.argv[sys.argv.index('--') + 1:]
    pid, fd = pty.fork()
    if pid == 0:
        os.execvp(cmd[0], cmd)
    out = b''
    deadline = time.time() + secs
    sent = False
    rc = None
    with open(log, 'wb') as f:
        while time.time() < deadline:
            r, _, _ = select.select([fd], [], [], 0.1)
            if r:
                try:
                    d = os.read(fd, 4096)
                except OSError:
                    d = b''
                if not d:
                    break
                f.write(d)
                f.flush()
                out += d
            if not sent and want in out:
                if hook != '-':
                    subprocess.run(['sh', hook])
                os.write(fd, b'\x03')
                sent = True
                deadline = time.time() + secs
        if not sent:
            f.write(b'\nterminal.py: no "%s" within the time\n' % want)
    for _ in range(int(secs * 10)):
        p, st = os.waitpid(pid, os.WNOHANG)
        if p == pid:
            rc = os.waitstatus_to_exitcode(st)
            break
        time.sleep(0.1)
    if rc is None:
        os.kill(pid, 9)
        os.waitpid(pid, 0)
        sys.exit(124)
    if not sent:
        sys.exit(124)
    sys.exit(rc if rc >= 0 else 128 - rc)


main()
