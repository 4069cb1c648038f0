"""The `archehr` command line: the only layer that prints and exits."""
