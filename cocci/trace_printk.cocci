// trace_printk() left in the code.
//
// trace_printk() is a debugging aid: the first use allocates the trace_printk
// buffers and prints a "**   trace_printk() being used" banner on the console
// of every boot. It must never be in a posted series (v1 had two, in
// task_cache_work()). Reports every call of trace_printk(), __trace_printk(),
// __trace_bprintk() and ftrace_vprintk(); the gate counts only those on lines
// the series added.
//
// Confidence: High
// Options: --no-includes --include-headers

virtual report

@r@
identifier f =~ "^(trace_printk|__trace_printk|__trace_bprintk|__trace_puts|trace_puts|ftrace_vprintk)$";
position p;
@@
f@p(...)

@script:python depends on report@
p << r.p;
f << r.f;
@@
coccilib.report.print_report(p[0], "%s() left in the code: debugging only, use a tracepoint" % f)
