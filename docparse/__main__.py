"""``python -m docparse``: the same as the ``docparse`` command."""

from docparse.cli import main

if __name__ == "__main__":
    main(prog_name="docparse")
