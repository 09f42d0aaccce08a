# The python3 command's body inside Pyodide: reads a CPython command line, runs it as CPython would
# (sys.argv, sys.path[0], exit codes, tracebacks), then puts the interpreter back as it was, so the
# next command starts with a fresh module state on the same warm interpreter.
#
# Loaded once per interpreter by sandbox-host.mjs; `_wb_run` is called once per command.
import atexit
import builtins
import errno
import glob
import importlib
import io
import os
import posix
import runpy
import site
import sys
import traceback
import warnings

_VERSION = "Python %d.%d.%d" % sys.version_info[:3]

_USAGE = """usage: python3 [option] ... [-c cmd | -m mod | file | -] [arg] ...
Options (this python3 runs CPython in WebAssembly through Pyodide):
-c cmd : program passed in as string (terminates option list)
-m mod : run library module as a script (terminates option list)
-u     : unbuffered output (always the case here)
-V     : print the Python version number and exit (also --version)
-B -E -I -O -q -s -S : accepted, no effect here
-W arg, -X opt : accepted, no effect here
file   : program read from script file
-      : program read from stdin (default; interactive mode is not available)
"""

_NO_PIP = """python3: venv and ensurepip are not available here (and pip runs from the shell, not inside Python).
Install pure-Python packages with `pip install NAME` (into .venv/lib/python3.X/site-packages, made when
missing), or put their files in a folder on PYTHONPATH (PYTHONPATH=vendor python3 app.py) or beside your script.
"""

# Flags that take no value and change nothing a program run here could see.
_QUIET_FLAGS = set("bBdEiIOqsSuvR")


class _Usage(Exception):
    pass


def _no_processes(*args, **kwargs):
    raise OSError(errno.ENOSYS, "python3 here runs in WebAssembly: it cannot start processes")


# Pyodide under node would hand os.system to node's child_process: never reach the machine.
for _name in ("system", "popen", "fork", "forkpty", "execv", "execve", "spawnv", "spawnve", "posix_spawn", "posix_spawnp", "kill", "killpg"):
    for _module in (os, posix):
        if hasattr(_module, _name):
            setattr(_module, _name, _no_processes)

# What every command starts from: the modules imported so far, the path, the builtins, the filters.
_BASE_MODULES = set(sys.modules)
_BASE_PATH = list(sys.path)
_BASE_BUILTINS = dict(builtins.__dict__)
_BASE_WARNINGS = list(warnings.filters)
_BASE_RECURSION = sys.getrecursionlimit()
_BASE_MAIN = type(sys)("__main__")


def _parse(argv):
    """Returns (mode, target, args): mode is "c", "m", "file", "stdin" or "version"."""
    at = 0
    while at < len(argv):
        arg = argv[at]
        if arg == "--version":
            return ("version", None, [])
        if arg == "--help" or arg == "-h" or arg == "-?":
            return ("help", None, [])
        if arg == "-" or not arg.startswith("-") or arg == "--":
            break
        letters = arg[1:]
        for i, letter in enumerate(letters):
            rest = letters[i + 1 :]
            if letter == "V":
                return ("version", None, [])
            if letter in ("c", "m"):
                if rest:
                    return (letter, rest, argv[at + 1 :])
                if at + 1 >= len(argv):
                    raise _Usage("Argument expected for the -%s option" % letter)
                return (letter, argv[at + 1], argv[at + 2 :])
            if letter in ("W", "X"):
                if not rest:
                    at += 1
                    if at >= len(argv):
                        raise _Usage("Argument expected for the -%s option" % letter)
                break
            if letter not in _QUIET_FLAGS:
                raise _Usage("Unknown option: -%s" % letter)
        at += 1
    rest = argv[at:]
    if rest and rest[0] == "--":
        rest = rest[1:]
    if not rest or rest[0] == "-":
        return ("stdin", "-" if rest else None, rest[1:])
    return ("file", rest[0], rest[1:])


def _user_traceback(exc):
    """The traceback without the frames of this driver and runpy, as CPython shows a script's."""
    tb = exc.__traceback__
    while tb is not None and (tb.tb_frame.f_code.co_filename in _OUR_FILES or tb.tb_frame.f_code.co_filename.startswith("<frozen ")):
        tb = tb.tb_next
    return tb


_OUR_FILES = {runpy.__file__, "<python3 driver>", "<exec>"}


def _exit_code(exc):
    code = exc.code
    if code is None:
        return 0
    if isinstance(code, bool) or isinstance(code, int):
        return int(code) & 0xFF
    try:
        sys.stderr.write(str(code) + "\n")
    except Exception:
        pass
    return 1


def _fresh_main():
    main = type(sys)("__main__")
    main.__dict__["__builtins__"] = builtins
    sys.modules["__main__"] = main
    return main


def _run_stdin_or_code(source, filename, main):
    code = compile(source, filename, "exec")
    exec(code, main.__dict__)


def _run(mode, target, args, cwd, stdin_text):
    if mode == "c":
        sys.argv = ["-c"] + args
        sys.path.insert(0, "")
        main = _fresh_main()
        _run_stdin_or_code(target, "<string>", main)
    elif mode == "m":
        # As CPython's own -m: argv[0] becomes the module's file, and a missing module exits 1 with a note.
        sys.argv = ["-m"] + args
        sys.path.insert(0, cwd)
        _fresh_main()
        runpy._run_module_as_main(target, alter_argv=True)
    elif mode == "stdin":
        # As CPython: [''] for a script read from stdin, ['-', ...] when "-" was written.
        sys.argv = ["-"] + args if target == "-" else [""]
        sys.path.insert(0, "")
        main = _fresh_main()
        _run_stdin_or_code(stdin_text or "", "<stdin>", main)
    else:
        sys.argv = [target] + args
        path = os.path.abspath(target)
        if os.path.isdir(path):
            sys.path.insert(0, path)
            runpy.run_path(target, run_name="__main__")
            return
        sys.path.insert(0, os.path.dirname(path))
        # As CPython: argv[0] as written, __file__ and the traceback's file name absolute.
        main = _fresh_main()
        main.__file__ = path
        main.__cached__ = None
        with open(path, "rb") as handle:
            source = handle.read()
        exec(compile(source, path, "exec"), main.__dict__)


def _reset(env):
    """Back to the state every command starts from (modules, path, builtins, filters, environment)."""
    for name in list(sys.modules):
        if name not in _BASE_MODULES:
            del sys.modules[name]
    sys.modules["__main__"] = _BASE_MAIN
    sys.path[:] = _BASE_PATH
    # The files may have changed since the last command: forget the folder listings imports cached.
    sys.path_importer_cache.clear()
    importlib.invalidate_caches()
    builtins.__dict__.clear()
    builtins.__dict__.update(_BASE_BUILTINS)
    warnings.filters[:] = _BASE_WARNINGS
    warnings._filters_mutated() if hasattr(warnings, "_filters_mutated") else None
    sys.setrecursionlimit(_BASE_RECURSION)
    os.environ.clear()
    os.environ.update(env)


def _streams(stdin_bytes):
    sys.stdin = io.TextIOWrapper(io.BytesIO(stdin_bytes), encoding="utf-8", errors="surrogateescape")
    # Line by line, as to a terminal, and flushed at the end: the host hands every write on at once.
    sys.stdout = io.TextIOWrapper(io.FileIO(1, "w", closefd=False), encoding="utf-8", errors="surrogateescape", write_through=True)
    sys.stderr = io.TextIOWrapper(io.FileIO(2, "w", closefd=False), encoding="utf-8", errors="backslashreplace", write_through=True)
    sys.__stdin__, sys.__stdout__, sys.__stderr__ = sys.stdin, sys.stdout, sys.stderr


def _flush():
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except Exception:
            pass


def _add_venv(cwd, root):
    """The packages of a `.venv` in the current folder or one above it inside the workspace, as if its
    python were the one running (there is no other python here to run)."""
    folder = cwd
    while True:
        for found in sorted(glob.glob(os.path.join(folder, ".venv", "lib", "python3*", "site-packages"))):
            site.addsitedir(found)
            return
        if folder == root or folder == os.path.dirname(folder) or not folder.startswith(root + "/"):
            return
        folder = os.path.dirname(folder)


def _wb_run(argv, cwd, env, stdin_bytes, extra_path, root):
    """Runs one command line; returns its exit code."""
    argv = list(argv)
    sys.executable = "/usr/bin/python3"
    env = dict(env)
    stdin_bytes = stdin_bytes.to_bytes() if hasattr(stdin_bytes, "to_bytes") else bytes(stdin_bytes)
    _reset(env)
    _streams(stdin_bytes)
    try:
        os.chdir(cwd)
    except OSError as error:
        sys.stderr.write("python3: cannot enter %s: %s\n" % (cwd, error.strerror))
        return 1
    for entry in reversed(list(extra_path)):
        sys.path.insert(0, entry)
    for entry in reversed([p for p in env.get("PYTHONPATH", "").split(":") if p]):
        sys.path.insert(0, os.path.abspath(entry))
    _add_venv(cwd, root)
    try:
        mode, target, args = _parse(argv)
    except _Usage as error:
        sys.stderr.write("%s\nusage: python3 [option] ... [-c cmd | -m mod | file | -] [arg] ...\nTry `python -h' for more information.\n" % error)
        return 2
    if mode == "version":
        sys.stdout.write(_VERSION + "\n")
        return 0
    if mode == "help":
        sys.stdout.write(_USAGE)
        return 0
    if mode == "m" and target in ("pip", "ensurepip", "venv"):
        sys.stderr.write(_NO_PIP)
        return 1
    if mode == "file" and not os.path.exists(target):
        sys.stderr.write("python3: can't open file %r: [Errno 2] No such file or directory\n" % os.path.abspath(target))
        return 2
    stdin_text = None
    if mode == "stdin":
        stdin_text = stdin_bytes.decode("utf-8", "surrogateescape")
        sys.stdin = io.TextIOWrapper(io.BytesIO(b""), encoding="utf-8")
    code = 0
    try:
        _run(mode, target, args, cwd, stdin_text)
    except SystemExit as exc:
        code = _exit_code(exc)
    except BaseException as exc:
        code = _report(exc)
    try:
        atexit._run_exitfuncs()
    except BaseException:
        pass
    atexit._clear()
    _flush()
    return code


def _report(exc):
    """Prints the exception as CPython does at top level; the exit code is 1."""
    if isinstance(exc, KeyboardInterrupt):
        code = 130
    else:
        code = 1
    try:
        traceback.print_exception(type(exc), exc, _user_traceback(exc), file=sys.stderr)
    except Exception:
        sys.stderr.write("%s: %s\n" % (type(exc).__name__, exc))
    return code
