// Must be reported: this_cpu_*() where the CPU is given (v1 account_mm_sched()).
static inline
void account_mm_sched(struct rq *rq, struct task_struct *p, s64 delta_exec)
{
	struct mm_sched *pcpu_sched;

	pcpu_sched = this_cpu_ptr(p->mm->pcpu_sched); /* REPORTED */
	pcpu_sched->runtime += delta_exec;
}

static unsigned long cache_cpu_occ(struct mm_struct *mm, int cpu)
{
	return __this_cpu_read(mm->pcpu_sched->occ); /* REPORTED */
}
