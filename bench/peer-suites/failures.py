#!/usr/bin/env python3
"""failures.py OUT [MEMTIER_TESTS_DIR]: for every run in OUT (SUITE-TOOL.log with SUITE-TOOL.results), list each
failing test with the suite's own words for why: the Tcl suites' [err] message, the RLTest
stand-in's failed assertions or the exception that ended the test. Markdown on stdout.
With memtier's tests/ folder, an assertion given only as file:line gets that line's source."""
import glob
import os
import re
import sys

ANSI = re.compile(r'\x1b\[[0-9;]*m')
NON_ZERO = re.compile(r'^\S+-benchmark non zero code')


def tcl_failures(lines):
    out = {}
    for i, line in enumerate(lines):
        m = re.match(r'^\[(err|exception)\]: (.*?)(?: in tests/\S+)?$', line)
        if not m:
            continue
        msg = []
        for nxt in lines[i + 1:i + 4]:
            # the message may span lines; the next test's own failure line, which the suite
            # prints before its [err], starts like this one
            if nxt.startswith('[') or not nxt.strip() or (msg and NON_ZERO.match(nxt)):
                break
            msg.append(nxt.strip())
        out[m.group(2)] = msg
    return out


def rltest_failures(lines):
    out, current, msg, exc = {}, None, [], []
    for line in lines:
        m = re.match(r'^RESULT (\w+) (\S+) \([0-9.]+s\)(.*)$', line)
        if m:
            if m.group(1) == 'FAIL':
                if exc:
                    frames = [l.strip() for l in exc if re.search(r'File ".*/tests/[^"]+"', l)]
                    where = re.sub(r'File ".*/tests/', 'File "', frames[-1]) if frames else ''
                    msg.append('exception: %s (%s)' % (exc[-1].strip(), where))
                if not msg and m.group(3).strip():
                    msg.append(m.group(3).strip())
                out[m.group(2)] = msg
            current, msg, exc = None, [], []
            continue
        if re.match(r'^[\w.]+:test\w*:$', line):
            current = line[:-1]
            continue
        if current is None:
            continue
        if line.startswith('\tSTDERR '):
            msg.append('benchmark stderr: ' + line.strip()[len('STDERR '):])
        elif line.startswith('\tASSERT FAILED'):
            msg.append(line.strip()[len('ASSERT FAILED '):])
        elif line.startswith('\tEXCEPTION'):
            exc = [line]
        elif exc and line.startswith('\t') and line.strip():
            exc.append(line)
    return out


def with_source(msg, tests_dir):
    m = re.search(r' at (\w+\.py):(\d+)$', msg)
    if not (m and tests_dir):
        return msg
    path = os.path.join(tests_dir, m.group(1))
    if not os.path.exists(path):
        return msg
    with open(path, errors='replace') as f:
        lines = f.readlines()
    n = int(m.group(2))
    return msg + ' `%s`' % lines[n - 1].strip()[:200] if n <= len(lines) else msg


def main(outdir, tests_dir=None):
    for log in sorted(glob.glob(os.path.join(outdir, '*.log'))):
        res = log[:-4] + '.results'
        if not os.path.exists(res):
            continue
        lines = [ANSI.sub('', l.rstrip('\n')) for l in open(log, errors='replace')]
        results = [l.rstrip('\n').split(' ', 1) for l in open(res) if l.strip()]
        passed = sum(1 for r in results if r[0] == 'PASS')
        failed = [r[1] for r in results if r[0] == 'FAIL']
        print('## %s: %d/%d\n' % (os.path.basename(log)[:-4], passed, passed + len(failed)))
        if not failed:
            continue
        why = rltest_failures(lines) if any(l.startswith('RLTest stand-in') for l in lines) \
            else tcl_failures(lines)
        for name in failed:
            msgs = why.get(name, [])
            print('- `%s`' % name)
            msgs = [with_source(m, tests_dir) for m in msgs]
            for m in msgs[:4]:
                print('  - %s' % (m if len(m) <= 400 else m[:400] + '…'))
            if len(msgs) > 4:
                print('  - (%d more)' % (len(msgs) - 4))
        print()


if __name__ == '__main__':
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__)
    main(*sys.argv[1:])
