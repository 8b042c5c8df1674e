/*
 * Macro hints for spatch (passed with --macro-file to our rules only): kernel
 * constructs Coccinelle 1.1.1 cannot parse on its own. A function that does
 * not parse is silently skipped by every rule, so keep this list growing.
 */
#define scoped_guard(...) for (;;)
#define scoped_cond_guard(...) for (;;)
#define DEFINE_SCHED_CLASS(name) const struct sched_class name##_sched_class
