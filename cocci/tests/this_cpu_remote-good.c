// Must stay quiet: per_cpu_ptr() on the given CPU; this_cpu_*() where no CPU
// is given, or where the parameter names the local CPU (this_rq, this_cpu).
static inline
void account_mm_sched(struct rq *rq, struct task_struct *p, s64 delta_exec)
{
	struct mm_sched *pcpu_sched;

	pcpu_sched = per_cpu_ptr(p->mm->pcpu_sched, cpu_of(rq));
	pcpu_sched->runtime += delta_exec;
}

static void count_local(struct task_struct *p)
{
	this_cpu_inc(p->mm->pcpu_sched->occ);
}

static int newidle_cache(struct rq *this_rq, int this_cpu)
{
	return this_cpu_read(sd_llc_id) == this_rq->cpu;
}
