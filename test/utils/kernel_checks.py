"""Shared by amdgcn_all.py and nvptx_all.py: the kernel sources under some
directories, and a parallel run of one check per (source, target) job."""
import concurrent.futures, os


def sources(tops, keep):
    """Sorted paths under the directories \\p tops whose file names do not
    start with `bad-` (sources the assembler must reject) and for which
    keep(path) is true."""
    found = []
    for top in tops:
        for root, _, files in os.walk(top):
            found += [os.path.join(root, f) for f in files
                      if not f.startswith("bad-") and keep(os.path.join(root, f))]
    return sorted(found)


def run_checks(jobs, check, noun):
    """Runs check(*job) for every job on all cores; each returns (checked,
    [failure messages]). Prints the failures and "checked N NOUN, M
    failures"; returns the exit status (1 with any failure)."""
    checked = failures = 0
    with concurrent.futures.ThreadPoolExecutor(os.cpu_count() or 2) as pool:
        for n, fails in pool.map(lambda j: check(*j), jobs):
            checked += n
            failures += len(fails)
            for f in fails:
                print(f)
    print(f"checked {checked} {noun}, {failures} failures")
    return 1 if failures else 0
