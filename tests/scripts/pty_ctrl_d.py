# Types a log into `amldoctor diagnose -` on a real pseudo-terminal and ends it with one
# Ctrl-D at the start of a line, as a user would; fails if the command still waits.
# Usage: python3 pty_ctrl_d.py AMLDOCTOR_BINARY
import os, pty, sys, time, select
binary = sys.argv[1]
pid, fd = pty.fork()
if pid == 0:
    os.execv(binary, [binary, "diagnose", "-", "--no-color", "--fail-on", "never"])
time.sleep(0.5)
os.write(fd, b"Reason: Worker failed to boot.\n")
time.sleep(0.2)
os.write(fd, b"\x04")  # one Ctrl-D at the start of a line
out = b""
deadline = time.time() + 5
done = False
while time.time() < deadline:
    r, _, _ = select.select([fd], [], [], 0.2)
    if r:
        try:
            chunk = os.read(fd, 65536)
        except OSError:
            done = True
            break
        if not chunk:
            done = True
            break
        out += chunk
    wpid, status = os.waitpid(pid, os.WNOHANG)
    if wpid:
        done = True
        break
if not done:
    os.kill(pid, 9)
    print("HUNG after one Ctrl-D")
    sys.exit(1)
print(out.decode(errors="replace"))
