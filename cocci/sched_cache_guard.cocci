// A cache-aware scheduling hook in a scheduler hot path that is not behind
// the feature switch.
//
// With CONFIG_SCHED_CACHE=y the series must cost (next to) nothing when the
// feature is off at run time (SCHED_CACHE sched_feat cleared, or the machine
// has one LLC per node, where v2 keeps its static key off). So every hook the
// series calls from a hot path must test the switch first.
//
// What is checked (kernel/sched/*.c, one file at a time):
//  - hot paths: update_curr(), update_curr_task(), update_curr_common(),
//    task_tick_fair(), select_task_rq_fair(), select_idle_sibling(),
//    wake_affine(), can_migrate_task(), task_hot(), detach_task(),
//    attach_task(), migrate_degrades_locality(), update_sg_lb_stats(),
//    enqueue_task_fair(), dequeue_task_fair(), pick_next_task_fair(),
//    sched_balance_rq() and load_balance();
//  - hooks: functions they call whose name is account_mm_sched,
//    task_tick_cache or select_cache_cpu, or contains "cache", "llc" or
//    "mm_sched" (cpus_share_cache() and the guards themselves excepted),
//    and that are defined in the same file;
//  - a guard is a call of sched_feat(), static_branch_likely/unlikely(),
//    static_key_enabled/true/false(), a tracepoint's trace_*_enabled() (a
//    static key too) or a helper named *cache_active / *cache_enabled (such
//    as v2's sched_cache_active()).
// A hook passes when, in each of its definitions,
//  - the first statement that calls anything (declarations included) is an
//    'if' whose condition contains a guard (the usual
//    'if (!sched_cache_active()) return;'), or
//  - the body is empty or a single 'return E;' (the !CONFIG_SCHED_CACHE stub),
// or when the call in the hot path sits inside 'if (... guard ...)' or on the
// right of 'guard && ...'. Otherwise the definition is reported.
// Not seen: hooks defined in another file (e.g. a header); hot paths other
// than the ones listed.
//
// Confidence: Moderate
// Options: --no-includes --include-headers

virtual report

@initialize:python@
@@
import re
GUARD = re.compile(r"^(sched_feat|static_branch_(un)?likely|static_key_(enabled|true|false)|\w*cache_(active|enabled)|trace_\w+_enabled)$")
calls = {}      # hook -> [(caller, call position)]
ok_sites = set()
defs = {}       # hook -> [definition position]
ok_defs = set()

def is_stub(pos):
    # The body of the function named at pos is empty or one 'return E;'.
    with open(pos.file) as fh:
        text = "".join(fh.readlines()[int(pos.line) - 1:])
    text = re.sub(r"/\*.*?\*/|//[^\n]*", " ", text, flags=re.S)
    start = text.find("{")
    depth = 0
    for i in range(start, len(text)):
        if text[i] == "{":
            depth += 1
        elif text[i] == "}":
            depth -= 1
            if depth == 0:
                body = text[start + 1:i]
                return re.match(r"^\s*(return\b[^;]*;)?\s*$", body) is not None
    return False

@hot@
identifier caller = {update_curr, update_curr_task, update_curr_common,
  task_tick_fair, select_task_rq_fair, select_idle_sibling, wake_affine,
  can_migrate_task, task_hot, detach_task, attach_task,
  migrate_degrades_locality, update_sg_lb_stats, enqueue_task_fair,
  dequeue_task_fair, pick_next_task_fair, sched_balance_rq, load_balance};
identifier fn =~ "(^(account_mm_sched|task_tick_cache|select_cache_cpu)$|cache|llc|mm_sched)";
type T;
position pc;
@@
T caller(...)
{
<+... fn@pc(...) ...+>
}

@script:python@
caller << hot.caller;
fn << hot.fn;
pc << hot.pc;
@@
if fn != "cpus_share_cache" and not GUARD.match(fn):
    calls.setdefault(fn, []).append((caller, pc[0]))

@guarded_if@
identifier hot.fn;
position hot.pc;
identifier g;
expression list es;
statement S;
position ps;
@@
if (<+... g(es) ...+>) S@ps

@script:python@
g << guarded_if.g;
pc << hot.pc;
ps << guarded_if.ps;
@@
a = pc[0]
s = ps[0]
if GUARD.match(g) and (int(s.line), int(s.column)) <= (int(a.line), int(a.column)) \
   and (int(a.line_end), int(a.column_end)) <= (int(s.line_end), int(s.column_end)):
    ok_sites.add((a.file, a.line, a.column))

@guarded_and@
identifier hot.fn;
position hot.pc;
identifier g;
expression list es;
@@
g(es) && <+... fn@pc(...) ...+>

@script:python@
g << guarded_and.g;
pc << hot.pc;
@@
if GUARD.match(g):
    ok_sites.add((pc[0].file, pc[0].line, pc[0].column))

@def@
identifier hot.fn;
type T;
position pd;
@@
T fn@pd(...) { ... }

@script:python@
fn << hot.fn;
pd << def.pd;
@@
defs.setdefault(fn, [])
if (pd[0].line, pd[0].column) not in [(d.line, d.column) for d in defs[fn]]:
    defs[fn].append(pd[0])
    if is_stub(pd[0]):
        ok_defs.add((pd[0].file, pd[0].line, pd[0].column))

@def_guarded@
identifier hot.fn;
identifier g, f;
expression list es;
type T;
statement S;
position def.pd;
@@
T fn@pd(...)
{
... when != f(...)
if (<+... g(es) ...+>) S
...
}

@script:python@
g << def_guarded.g;
pd << def.pd;
@@
if GUARD.match(g):
    ok_defs.add((pd[0].file, pd[0].line, pd[0].column))

@finalize:python depends on report@
@@
for fn in sorted(calls):
    open_sites = [(c, p) for (c, p) in calls[fn] if (p.file, p.line, p.column) not in ok_sites]
    if not open_sites:
        continue
    for d in defs.get(fn, []):
        if (d.file, d.line, d.column) in ok_defs:
            continue
        where = ", ".join(sorted(set("%s()" % c for (c, p) in open_sites)))
        coccilib.report.print_report(d, "hook %s() is called from a hot path (%s) but does not start by testing the feature switch (sched_feat(SCHED_CACHE), a static key or sched_cache_active())" % (fn, where))
