"""What the end-to-end benchmark drivers share (standard library only): one run of a command timed from its spawn to
its reaped exit, commands timed in turns, the median, and the copy of the Python standard library they search."""
import os
import shutil
import sysconfig
import time

# What a copy of the Python standard library leaves out: the installed packages (with them the tree is about 941 MB
# and a benchmark times the disk). The tree is otherwise as installed, compiled caches (`__pycache__`) included, as
# the rows a user meets; a repository made of it leaves them out too (`repository=True`), as a repository would.
PYTHON_STDLIB_SKIPPED = ("site-packages", "dist-packages")


def copy_python_stdlib(target, repository=False):
    """Copies the standard library as installed (`sysconfig`'s stdlib) to `target`, which must not exist, without
    the folders named in `PYTHON_STDLIB_SKIPPED`, and without `__pycache__` for a repository; symbolic links are
    copied as links."""
    skipped = PYTHON_STDLIB_SKIPPED + (("__pycache__",) if repository else ())
    shutil.copytree(sysconfig.get_paths()["stdlib"], target, symlinks=True,
                    ignore=lambda folder, names: [name for name in names if name in skipped])
    return target


def run_once(args, cwd=None):
    """Wall time in seconds of one run of `args`, started in `cwd` (default: this process's folder), its output read
    through a pipe (as a terminal-less user's pipe would), its errors discarded; the time runs from the spawn to the
    reaped exit. `args[0]` is looked up on PATH when it names no file."""
    program = shutil.which(args[0]) or args[0]
    reading, writing = os.pipe()
    actions = [(os.POSIX_SPAWN_DUP2, writing, 1), (os.POSIX_SPAWN_CLOSE, reading),
               (os.POSIX_SPAWN_OPEN, 2, os.devnull, os.O_WRONLY, 0)]
    # posix_spawn takes no folder to start in, so this process moves there for the spawn and back.
    previous = os.getcwd()
    try:
        if cwd is not None:
            os.chdir(cwd)
        start = time.perf_counter()
        pid = os.posix_spawn(program, args, os.environ, file_actions=actions)
    except BaseException:
        os.close(reading)
        raise
    finally:
        os.chdir(previous)
        os.close(writing)
    while os.read(reading, 1 << 16):
        pass
    os.close(reading)
    os.waitpid(pid, 0)
    return time.perf_counter() - start


def time_in_turns(commands, runs, cwd=None):
    """The times of `runs` runs of each command (a list of argument lists), one list per command in their order.
    Each command runs once untimed first; then each round runs them all, in order in the even rounds and in reverse
    in the odd ones, so that each runs before the others in half the rounds and a burst of load on a shared machine
    falls on all of them."""
    for args in commands:
        run_once(args, cwd)
    times = [[] for _ in commands]
    indexed = list(enumerate(commands))
    for round in range(runs):
        for index, args in (indexed if round % 2 == 0 else reversed(indexed)):
            times[index].append(run_once(args, cwd))
    return times


def median(values):
    """The middle value once sorted; of an even count, the upper of the two middle ones."""
    ordered = sorted(values)
    return ordered[len(ordered) // 2]
