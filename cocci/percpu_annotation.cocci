// A per-CPU pointer held in a pointer declared without __percpu.
//
// The result of alloc_percpu*() is an address in the __percpu address space;
// it may only be dereferenced through per_cpu_ptr()/this_cpu_ptr(). Holding it
// in a plain 'T *' hides it from sparse's address-space check and invites a
// direct dereference. v1 did this in mm_alloc_sched_noprof()
// ('struct mm_sched *pcpu_sched = alloc_percpu_noprof(...)') and in
// mm_init_sched(..., struct mm_sched *_pcpu_sched), which passes that
// parameter to per_cpu_ptr().
//
// Reports:
//  - a local 'T *x' (initialised or later assigned) given the result of
//    alloc_percpu*() / __alloc_percpu*(), when T does not carry __percpu;
//  - a parameter or local 'T *x' without __percpu that is passed to
//    per_cpu_ptr(), this_cpu_ptr(), raw_cpu_ptr() or free_percpu().
// Struct members are not seen (their declaration is usually in a header);
// sparse (gate 2) catches those.
//
// Confidence: High
// Options: --no-includes --include-headers

virtual report

@init@
identifier x, a =~ "^(__)?alloc_percpu";
type T;
position p;
@@
T *x@p = a(...);

@assigned exists@
identifier x, a =~ "^(__)?alloc_percpu";
type T;
position p;
@@
T *x@p;
...
x = a(...)

@parm@
identifier fn, x, use =~ "^(per_cpu_ptr|this_cpu_ptr|raw_cpu_ptr|free_percpu)$";
type T, R;
position p;
@@
R fn(..., T *x@p, ...)
{
<+... use(x, ...) ...+>
}

@loc exists@
identifier x, use =~ "^(per_cpu_ptr|this_cpu_ptr|raw_cpu_ptr|free_percpu)$";
type T;
position p;
@@
T *x@p;
...
use(x, ...)

@script:python depends on report@
p << init.p;
x << init.x;
T << init.T;
a << init.a;
@@
if "__percpu" not in T:
    coccilib.report.print_report(p[0], "'%s *%s' holds the result of %s() but is not declared __percpu" % (T, x, a))

@script:python depends on report@
p << assigned.p;
x << assigned.x;
T << assigned.T;
a << assigned.a;
@@
if "__percpu" not in T:
    coccilib.report.print_report(p[0], "'%s *%s' holds the result of %s() but is not declared __percpu" % (T, x, a))

@script:python depends on report@
p << parm.p;
x << parm.x;
T << parm.T;
use << parm.use;
@@
if "__percpu" not in T:
    coccilib.report.print_report(p[0], "parameter '%s *%s' is passed to %s() but is not declared __percpu" % (T, x, use))

@script:python depends on report@
p << loc.p;
x << loc.x;
T << loc.T;
use << loc.use;
@@
if "__percpu" not in T:
    coccilib.report.print_report(p[0], "'%s *%s' is passed to %s() but is not declared __percpu" % (T, x, use))
