// Must be reported: per-CPU pointers without __percpu (v1 mm_types.h, fair.c).
static inline int mm_alloc_sched_noprof(struct mm_struct *mm)
{
	struct mm_sched *pcpu_sched = alloc_percpu_noprof(struct mm_sched); /* REPORTED */

	if (!pcpu_sched)
		return -ENOMEM;
	mm_init_sched(mm, pcpu_sched);
	return 0;
}

void mm_init_sched(struct mm_struct *mm, struct mm_sched *_pcpu_sched) /* REPORTED */
{
	int i;

	for_each_possible_cpu(i)
		per_cpu_ptr(_pcpu_sched, i)->runtime = 0;
}

static int other(void)
{
	struct mm_sched *s; /* REPORTED */

	s = alloc_percpu(struct mm_sched);
	return s != NULL;
}
