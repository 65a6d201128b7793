# A Python bot's start without `site`'s main step (the interpreter runs
# with -S): what that step gives a script, given here. Run by `python3 -S
# -c`, with the bot's entry as the first argument; the referee appends
# `exec(_start(FOLDERS, PREFIX, EXEC_PREFIX), globals())` with what `site`
# finds on this machine (referee/sandbox/src/python_start.rs). The script
# then runs in the frame of `exec`, one below the start's own.
def _start(folders, prefix, exec_prefix):
    import sys
    import os.path as path
    # Imported, not run: `site.main()` is what runs the `.pth` files.
    import site
    entry = sys.argv[1]
    del sys.argv[0]
    # As for `python3 entry`: the script's own folder first, links
    # resolved (not under -P, PYTHONSAFEPATH); then the standard library;
    # then the packages' folders; a virtual environment's prefix.
    if not getattr(sys.flags, 'safe_path', False):
        sys.path[0] = path.dirname(path.realpath(entry))
    sys.path.extend(f for f in folders if f not in sys.path)
    sys.prefix, sys.exec_prefix = prefix, exec_prefix
    site.ENABLE_USER_SITE = site.check_enableusersite()
    site.getusersitepackages()
    # exit(), quit(), help(), copyright(), credits(), license(): site's own.
    site.setquit()
    site.setcopyright()
    site.sethelper()
    main = sys.modules['__main__'].__dict__
    del main['_start']
    main['__file__'] = entry
    main['__cached__'] = None
    loader = getattr(sys.modules.get('_frozen_importlib_external'), 'SourceFileLoader', None)
    if loader is not None:
        main['__loader__'] = loader('__main__', entry)
    # An error the script does not catch is printed as its own run prints
    # it: without this start's frame (`<string>`). The interpreter then
    # ends as it would (status 1; a KeyboardInterrupt's signal).
    hook = sys.excepthook

    def without_start(kind, error, trace):
        while trace is not None and trace.tb_frame.f_code.co_filename == '<string>':
            trace = trace.tb_next
        if error is not None:
            error.with_traceback(trace)
        hook(kind, error, trace)

    sys.excepthook = without_start
    try:
        with open(entry, 'rb') as source:
            text = source.read()
    except OSError as error:
        # As the interpreter says it of a script it cannot open.
        print(f"{sys.orig_argv[0]}: can't open file {entry!r}: "
              f"[Errno {error.errno}] {error.strerror}", file=sys.stderr)
        raise SystemExit(2)
    return compile(text, entry, 'exec', dont_inherit=True)
