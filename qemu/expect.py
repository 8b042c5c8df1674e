#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Judge a boot's results against tests/expect.tsv.

    qemu/expect.py KUNIT_DIR EXPECT_TSV RESULTS_KTAP

The results are parsed with the kernel tree's own KTAP parser
(tools/testing/kunit/kunit_parser.py, from KUNIT_DIR), so nested subtests
count. The boot is named by the guest's header line
("# cas: RELEASE topology=T cpus=N series=S config=C model=M"). Every result, a
test program as a whole or one of its subtests, must have an expectation
(the first matching line of EXPECT_TSV):

    run       it must pass: a skip fails the boot
    skip      it must skip: one that ran fails the boot
    may-skip  either (the line says why)

A skip or may-skip line may give an eighth field, an extended regular
expression that the skip's own text (after "# SKIP") must match: a test
that starts skipping for another reason (no feature, where the line
expects a geometry) fails the boot.

A subtest that is "not ok" fails the boot whatever its program's exit
status; so does a subtest the expectations name, that must run here, and
that the program, which ran, did not report. Prints one line a problem
("expect: ...") and exits 1 if there is any, 2 on bad input.

Python rather than shell: the parser is a Python module, and its tree of
results is what is judged.
"""
import fnmatch
import io
import os
import re
import sys


def die(msg):
    print(f'expect: error: {msg}', file=sys.stderr)
    sys.exit(2)


def load_expectations(path):
    rules = []
    with open(path) as f:
        for num, line in enumerate(f, 1):
            line = line.rstrip('\n')
            if not line.strip() or line.startswith('#'):
                continue
            fields = line.split('\t')
            if len(fields) == 6:
                fields.append('')   # a "run" line needs no reason
            if len(fields) == 7:
                fields.append('')   # nor a skip text
            if len(fields) != 8:
                die(f'{path}:{num}: {len(fields)} fields, 7 or 8 wanted '
                    '(series config topology test subtest expect reason [skip text])')
            if fields[7]:
                if fields[5] == 'run':
                    die(f'{path}:{num}: a skip text on a "run" line')
                try:
                    re.compile(fields[7])
                except re.error as e:
                    die(f'{path}:{num}: skip text /{fields[7]}/: {e}')
            if fields[5] not in ('run', 'skip', 'may-skip'):
                die(f'{path}:{num}: expect "{fields[5]}" is not run, skip or may-skip')
            if fields[5] != 'run' and not fields[6].strip():
                die(f'{path}:{num}: a skip needs a reason')
            rules.append((num, fields))
    return rules


def header(lines):
    for line in lines:
        if line.startswith('# cas: ') and ' topology=' in line:
            kv = dict(w.split('=', 1) for w in line[7:].split()[1:] if '=' in w)
            # a boot under the cache model (make MODEL=llc) is config+llc
            config = kv.get('config', '?') + ('+llc' if kv.get('model') == 'llc' else '')
            return kv.get('series', '?'), config, kv['topology'], kv.get('tests')
    die('no "# cas: RELEASE topology=..." header in the results: '
        'which boot this was is not known')


# The guest's own pseudo-tests, reported only when the boot asks for them
PSEUDO = {'features', 'extra', 'selection'}


def main():
    if len(sys.argv) != 4:
        die('usage: expect.py KUNIT_DIR EXPECT_TSV RESULTS_KTAP')
    kunit_dir, exp_path, res_path = sys.argv[1:]
    sys.path.insert(0, kunit_dir)
    try:
        import kunit_parser
        import kunit_printer
    except ImportError as e:
        die(f'cannot load the KTAP parser from {kunit_dir}: {e}')
    rules = load_expectations(exp_path)
    with open(res_path, errors='replace') as f:
        lines = [l.rstrip('\r\n') for l in f]
    boot = header(lines)

    # the parser prints its own report: not wanted here
    kunit_parser.stdout = kunit_printer.Printer(io.StringIO())
    top = kunit_parser.parse_run_tests(l + '\n' for l in lines)
    Status = kunit_parser.TestStatus

    def expectation(test, sub):
        for num, (s, c, t, prog, subtest, exp, why, says) in rules:
            if all(fnmatch.fnmatchcase(v, p) for v, p in
                   ((boot[0], s), (boot[1], c), (boot[2], t), (test, prog), (sub, subtest))):
                return num, exp, why, says
        return None

    problems = []

    unplaced = set()

    def judge(test, sub, status, reason):
        where = test if sub == '-' else f'{test}: {sub}'
        if not test or sub.endswith('/') or not sub:
            # one line a program: a crash or timeout mid-plan leaves many
            if test not in unplaced:
                unplaced.add(test)
                problems.append(f'{test or "the run"}: results the parser could not place '
                                '(a plan that counts more results than were reported: '
                                'a crash or a time limit?)')
            return
        if status in (Status.FAILURE, Status.TEST_CRASHED, Status.FAILURE_TO_PARSE_TESTS):
            problems.append(f'{where} failed')
            return
        e = expectation(test, sub)
        if e is None:
            problems.append(f'{where}: no line of {os.path.basename(exp_path)} says what to expect '
                            f'(series={boot[0]} config={boot[1]} topology={boot[2]})')
            return
        num, exp, why, says = e
        if status == Status.NO_TESTS and exp == 'run':
            problems.append(f'{where} reported no result, but must run here (line {num})')
            return
        skipped = status == Status.SKIPPED
        if exp == 'run' and skipped:
            problems.append(f'{where} skipped ({reason or "no reason given"}), '
                            f'but must run here (line {num})')
        elif exp == 'skip' and not skipped:
            problems.append(f'{where} ran, but must skip here (line {num}: {why})')
        elif skipped and says and not re.search(says, reason):
            # skipped, but for another reason than the one expected here
            problems.append(f'{where} skipped ({reason or "no reason given"}), but line {num} '
                            f'wants a skip that says /{says}/ ({why})')

    # the reasons of the skips, by test name (the parser keeps no directive text)
    reasons = {}
    for l in lines:
        m = re.match(r'^\s*ok \d+ (.*?) # SKIP ?(.*)$', l)
        if m:
            reasons.setdefault(m.group(1), m.group(2))

    def skip_reason(t):
        return reasons.get(t.name, '')

    # judge a program's leaf results; returns their paths (SUITE/CASE)
    def walk(prog, t, path=''):
        seen = set()
        for s in t.subtests:
            p = f'{path}/{s.name}' if path else s.name
            if s.subtests:
                seen |= walk(prog, s, p)
            elif not s.name:
                judge(prog, '', s.status, '')
            else:
                judge(prog, p, s.status, skip_reason(s))
                seen.add(p)
        return seen

    ran = {}
    for prog in top.subtests:
        whole = expectation(prog.name, '-') if prog.name else None
        if prog.subtests and whole and whole[1] == 'skip':
            problems.append(f'{prog.name} ran, but must skip here (line {whole[0]}: {whole[2]})')
            ran[prog.name] = set()
        elif prog.subtests:
            ran[prog.name] = walk(prog.name, prog)
        else:
            judge(prog.name, '-', prog.status, skip_reason(prog))
            # a program that ran and reported no subtest: those the
            # expectations name are missing
            if prog.name and prog.status != Status.SKIPPED:
                ran[prog.name] = set()

    # subtests named in the expectations that must run here, of programs
    # that ran: each must have been reported
    for num, (s, c, t, prog, subtest, exp, why, says) in rules:
        if prog not in ran or subtest == '-' or any(ch in subtest for ch in '*?['):
            continue
        e = expectation(prog, subtest)
        if e and e[1] == 'run' and subtest not in ran[prog]:
            problems.append(f'{prog}: {subtest} missing: it must run here (line {e[0]}), '
                            'and its program did not report it')
            ran[prog].add(subtest)

    # every test program (not the guest's pseudo-tests) that must run here
    # was reported, when the boot selected them all
    if boot[3] == '*':
        reported = {t.name for t in top.subtests}
        for num, (s, c, t, prog, subtest, exp, why, says) in rules:
            if subtest != '-' or prog in PSEUDO or prog in reported or \
               any(ch in prog for ch in '*?['):
                continue
            e = expectation(prog, '-')
            if e and e[1] == 'run':
                problems.append(f'{prog} missing: it must run here (line {e[0]}), '
                                'and the guest did not report it')
                reported.add(prog)

    # what the parser itself found wrong (counts more results than the
    # plan, a malformed line), beside what the expectations found
    if top.counts.errors and not unplaced:
        problems.append(f'the KTAP parser found {top.counts.errors} error(s) in the results')

    for p in problems:
        print(f'expect: {p}')
    print(f'expect: series={boot[0]} config={boot[1]} topology={boot[2]}: '
          f'{len(problems)} problem(s)')
    sys.exit(1 if problems else 0)


if __name__ == '__main__':
    main()
