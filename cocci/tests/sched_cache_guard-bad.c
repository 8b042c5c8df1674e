// Must be reported: hooks called from hot paths without testing the switch
// (v1: account_mm_sched() from update_curr_task(), task_tick_cache() from
// task_tick_fair()).
#ifdef CONFIG_SCHED_CACHE
static void account_mm_sched(struct rq *rq, struct task_struct *p, s64 delta_exec) /* REPORTED */
{
	struct mm_struct *mm = p->mm;

	if (!mm || !mm->pcpu_sched)
		return;
	per_cpu_ptr(mm->pcpu_sched, cpu_of(rq))->runtime += delta_exec;
}

static void task_tick_cache(struct rq *rq, struct task_struct *p) /* REPORTED */
{
	struct mm_struct *mm = p->mm;

	task_work_add(p, &mm->cache_work, TWA_RESUME);
	if (!sched_feat(SCHED_CACHE))
		return;
}
#else
static inline void account_mm_sched(struct rq *rq, struct task_struct *p, s64 delta_exec) { }
static inline void task_tick_cache(struct rq *rq, struct task_struct *p) { }
#endif

static inline void update_curr_task(struct rq *rq, struct task_struct *p, s64 delta_exec)
{
	trace_sched_stat_runtime(p, delta_exec);
	account_mm_sched(rq, p, delta_exec);
}

static void task_tick_fair(struct rq *rq, struct task_struct *curr, int queued)
{
	task_tick_cache(rq, curr);
}
