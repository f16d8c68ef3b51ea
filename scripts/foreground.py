#!/usr/bin/env python3
# SPDX-License-Identifier: ISC
# foreground.py: run CMD as the terminal's foreground process group, for
# `make run`: Ctrl-C then reaches CMD alone, which stops cleanly and
# exits 0, and not make too, which would die of it (status 130) after
# CMD's clean stop.  The terminal goes back to the caller's group when
# CMD ends.  Without a terminal on stdin CMD just runs.  Exits with
# CMD's status (128+N when signal N ended it).
#
# usage: python3 scripts/foreground.py CMD [ARG...]

import os
import signal
import sys

cmd = sys.argv[1:]
if not cmd:
    sys.exit("usage: foreground.py CMD [ARG...]")
try:
    caller = os.tcgetpgrp(0)
except OSError:
    os.execvp(cmd[0], cmd)

# Giving the terminal away and taking it back from a background group.
signal.signal(signal.SIGTTOU, signal.SIG_IGN)
pid = os.fork()
if pid == 0:
    os.setpgid(0, 0)
    os.tcsetpgrp(0, os.getpgrp())
    signal.signal(signal.SIGTTOU, signal.SIG_DFL)
    os.execvp(cmd[0], cmd)
# Either side may do it first; both are the same.
try:
    os.setpgid(pid, pid)
    os.tcsetpgrp(0, pid)
except OSError:
    pass
while True:
    try:
        _, status = os.waitpid(pid, 0)
        break
    except InterruptedError:
        continue
try:
    os.tcsetpgrp(0, caller)
except OSError:
    pass
if os.WIFSIGNALED(status):
    sys.exit(128 + os.WTERMSIG(status))
sys.exit(os.WEXITSTATUS(status))
