#!/usr/bin/env python3
"""CPU time (user + sys, the process and every child it waited for) of `toolgate inspect`
against benches/bare_list.c on the same servers, runs interleaved (issue 40 point 8).

    cc -O2 -o /tmp/bare_list benches/bare_list.c
    python3 benches/inspect_cpu.py TOOLGATE BARE RUNS 'server cmd' ['server cmd' ...]
"""
import resource, shlex, subprocess, sys


def cpu(cmd):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


tg, bare, runs, servers = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4:]
total_b = total_t = 0.0
for server in servers:
    argv = shlex.split(server)
    b = t = 0.0
    for _ in range(runs):
        b += cpu([bare] + argv)
        t += cpu([tg, "inspect", server])
    total_b += b
    total_t += t
    print(f"{argv[0].split('/')[-1]:28} bare C {b / runs * 1000:7.1f} ms  inspect {t / runs * 1000:7.1f} ms  x{t / b:.3f}")
print(f"{'all':28} bare C {total_b / runs * 1000:7.1f} ms  inspect {total_t / runs * 1000:7.1f} ms  x{total_t / total_b:.3f}")
