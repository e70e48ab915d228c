#!/usr/bin/env python3
"""Runs a shell command line in a terminal of its own, as a person at a terminal would, and types one answer at each
prompt it shows: for a command that asks for passwords on its terminal (`docker run -it … mosquitto_passwd`), which
reads nothing from a pipe.

    answer_prompts.py PROMPT LINE [ANSWER…]

PROMPT is a regular expression that ends a prompt ("[Pp]assword: $"); each time the output so far ends with it,
the next ANSWER is typed, then Enter. Typing only once asked matters: a program that turns echo off with TCSAFLUSH
throws away what was typed before. The command's output is passed on (answers are not echoed: the terminal's echo
is the program's). Exits with the command's status; 124 if a prompt is still waiting after 120 s, or an answer is
asked for that was not given.
"""
import os
import pty
import re
import select
import sys
import time


def main():
    if len(sys.argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    prompt = re.compile(sys.argv[1].encode())
    line = sys.argv[2]
    answers = [answer.encode() for answer in sys.argv[3:]]
    pid, terminal = pty.fork()
    if pid == 0:
        os.execvp("sh", ["sh", "-c", line])
    seen = b""
    deadline = time.monotonic() + 120
    while True:
        ready, _, _ = select.select([terminal], [], [], 1)
        if ready:
            try:
                chunk = os.read(terminal, 4096)
            except OSError:  # EIO: the command and everything it started closed the terminal
                chunk = b""
            if not chunk:
                break
            sys.stdout.buffer.write(chunk)
            sys.stdout.buffer.flush()
            seen = (seen + chunk)[-4096:]
            if prompt.search(seen):
                if not answers:
                    print("\nanswer_prompts: asked once more than answers were given", file=sys.stderr)
                    os.kill(pid, 9)
                    return 124
                os.write(terminal, answers.pop(0) + b"\n")
                seen = b""
                deadline = time.monotonic() + 120
        elif time.monotonic() > deadline:
            print("\nanswer_prompts: no prompt and no end within 120 s", file=sys.stderr)
            os.kill(pid, 9)
            return 124
    _, status = os.waitpid(pid, 0)
    return os.waitstatus_to_exitcode(status)


if __name__ == "__main__":
    sys.exit(main())
