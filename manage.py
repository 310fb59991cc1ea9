#!/usr/bin/env python
"""Django's command-line utility, which also starts the embedded database when needed."""

from config.cli import main

if __name__ == "__main__":
    main()
