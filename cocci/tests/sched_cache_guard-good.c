// Must stay quiet: each hook tests the switch first, or its call site does;
// the !CONFIG_SCHED_CACHE stubs are empty or a single return.
#ifdef CONFIG_SCHED_CACHE
static __always_inline bool sched_cache_active(void)
{
	return static_branch_unlikely(&sched_cache_present) && sched_feat(SCHED_CACHE);
}

static void account_mm_sched(struct rq *rq, struct task_struct *p, s64 delta_exec)
{
	struct mm_struct *mm = p->mm;

	if (!sched_cache_active())
		return;
	if (!mm || !mm->pcpu_sched)
		return;
	per_cpu_ptr(mm->pcpu_sched, cpu_of(rq))->runtime += delta_exec;
}

static void task_tick_cache(struct rq *rq, struct task_struct *p)
{
	task_work_add(p, &p->mm->cache_work, TWA_RESUME);
}

static int select_cache_cpu(struct task_struct *p, int prev_cpu)
{
	if (!sched_feat(SCHED_CACHE) || p->nr_cpus_allowed == 1)
		return prev_cpu;
	return p->mm->mm_sched_cpu;
}

static void trace_cache_migrate(struct task_struct *p, int src_cpu, int dst_cpu)
{
	if (!trace_sched_cache_migrate_enabled() || cpus_share_cache(src_cpu, dst_cpu))
		return;
	trace_sched_cache_migrate(p, src_cpu, dst_cpu);
}

static bool cache_llc_busy(int cpu)
{
	return cpu_rq(cpu)->nr_running > 1;
}
#else
static inline void account_mm_sched(struct rq *rq, struct task_struct *p, s64 delta_exec) { }
static inline void task_tick_cache(struct rq *rq, struct task_struct *p) { }
static int select_cache_cpu(struct task_struct *p, int prev_cpu)
{
	return prev_cpu;
}
static bool cache_llc_busy(int cpu) { return false; }
#endif

static inline void update_curr_task(struct rq *rq, struct task_struct *p, s64 delta_exec)
{
	account_mm_sched(rq, p, delta_exec);
}

static void task_tick_fair(struct rq *rq, struct task_struct *curr, int queued)
{
	if (static_branch_unlikely(&sched_cache_present))
		task_tick_cache(rq, curr);
}

static int select_task_rq_fair(struct task_struct *p, int prev_cpu, int wake_flags)
{
	int cpu = select_cache_cpu(p, prev_cpu);

	if (sched_cache_active() && cache_llc_busy(cpu))
		cpu = prev_cpu;
	trace_cache_migrate(p, prev_cpu, cpu);
	return cpu;
}
