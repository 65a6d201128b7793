# A Python bot's start without `site` (the interpreter runs with -S): what
# `site` gives a script, given here. Run by `python3 -S -c`, with the bot's
# entry as the first argument; the referee appends the call of `_start`
# with the folders `site` adds on this machine (referee/sandbox/src/python_start.rs).
def _start(folders):
    import sys, builtins
    import os.path as path
    entry = sys.argv[1]
    del sys.argv[0]
    # As for `python3 entry`: the script's own folder first, links
    # resolved; then the standard library; then the packages' folders.
    sys.path[0] = path.dirname(path.realpath(entry))
    sys.path.extend(f for f in folders if f not in sys.path)

    class Quitter:
        def __init__(self, name):
            self.name = name

        def __repr__(self):
            return f'Use {self.name}() or Ctrl-D (i.e. EOF) to exit'

        def __call__(self, code=None):
            try:
                sys.stdin.close()
            except Exception:
                pass
            raise SystemExit(code)

    builtins.exit, builtins.quit = Quitter('exit'), Quitter('quit')
    main = sys.modules['__main__'].__dict__
    del main['_start']
    main['__file__'] = entry
    main['__cached__'] = None
    loader = getattr(sys.modules.get('_frozen_importlib_external'), 'SourceFileLoader', None)
    if loader is not None:
        main['__loader__'] = loader('__main__', entry)
    try:
        with open(entry, 'rb') as source:
            code = compile(source.read(), entry, 'exec', dont_inherit=True)
        del source
        exec(code, main)
    except SystemExit:
        raise
    except BaseException as error:
        # The traceback a script's own run prints: without this start's
        # frames.
        trace = error.__traceback__
        while trace is not None and trace.tb_frame.f_code.co_filename == '<string>':
            trace = trace.tb_next
        sys.excepthook(type(error), error.with_traceback(trace), trace)
        raise SystemExit(1)
