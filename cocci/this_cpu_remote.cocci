// this_cpu_*() in a function that is told which CPU to work on.
//
// A function that takes a 'struct rq *' or a CPU number works on that CPU,
// which need not be the CPU it runs on (remote wakeups, load balancing,
// update_curr() of another runqueue under its lock). Using this_cpu_ptr(),
// this_cpu_read()/_write()/_add()/_inc()..., raw_cpu_*() or __this_cpu_*() there
// touches the wrong CPU's data. v1 did this in account_mm_sched(rq, p, ...):
// this_cpu_ptr(p->mm->pcpu_sched) where per_cpu_ptr(..., cpu_of(rq)) is meant.
//
// Reports such a use in a function with a parameter 'struct rq *NAME' or an
// integer parameter whose name ends in "cpu" (cpu, src_cpu, prev_cpu, ...).
// Parameters named this_rq/this_cpu (by convention the local CPU) are not
// counted. Use per_cpu_ptr(X, cpu_of(rq)) / per_cpu(X, cpu) instead.
//
// Confidence: Moderate (a function may be known to run on that CPU; then
// say so by not passing the CPU, or use this_rq()).
// Options: --no-includes --include-headers

virtual report

@rq@
identifier fn, r !~ "^this_";
identifier op =~ "^(__)?(this|raw)_cpu_";
type T;
position p;
@@
T fn(..., struct rq *r, ...)
{
<+... op@p(...) ...+>
}

@cpu@
identifier fn, c =~ "cpu$";
identifier op =~ "^(__)?(this|raw)_cpu_";
type T, IT;
position p;
@@
T fn(..., IT c, ...)
{
<+... op@p(...) ...+>
}

@script:python depends on report@
p << rq.p;
fn << rq.fn;
r << rq.r;
op << rq.op;
@@
coccilib.report.print_report(p[0], "%s() in %s(), which takes 'struct rq *%s': use per_cpu_ptr(..., cpu_of(%s))" % (op, fn, r, r))

@script:python depends on report@
p << cpu.p;
fn << cpu.fn;
c << cpu.c;
op << cpu.op;
IT << cpu.IT;
@@
if not c.startswith("this_") and IT.replace("unsigned", "").strip() in ("int", "long", ""):
    coccilib.report.print_report(p[0], "%s() in %s(), which takes CPU number '%s': use per_cpu_ptr()/per_cpu() on %s" % (op, fn, c, c))
