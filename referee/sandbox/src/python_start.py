# A Python bot's start without `site`'s main step (the interpreter runs
# with -S): what that step gives a script, given here. Run by `python3 -S
# -c`, with the bot's entry as the first argument; the referee appends the
# call of `_start` with the folders `site` adds on this machine
# (referee/sandbox/src/python_start.rs).
def _start(folders):
    import sys
    import os.path as path
    # Imported, not run: `site.main()` is what runs the `.pth` files.
    import site
    entry = sys.argv[1]
    del sys.argv[0]
    # As for `python3 entry`: the script's own folder first, links
    # resolved; then the standard library; then the packages' folders.
    sys.path[0] = path.dirname(path.realpath(entry))
    sys.path.extend(f for f in folders if f not in sys.path)
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
    # it: without this start's frames (`<string>`). The interpreter then
    # ends as it would (status 1; a KeyboardInterrupt's signal).
    hook = sys.excepthook

    def without_start(kind, error, trace):
        while trace is not None and trace.tb_frame.f_code.co_filename == '<string>':
            trace = trace.tb_next
        if error is not None:
            error.with_traceback(trace)
        hook(kind, error, trace)

    sys.excepthook = without_start
    with open(entry, 'rb') as source:
        code = compile(source.read(), entry, 'exec', dont_inherit=True)
    del source
    exec(code, main)
