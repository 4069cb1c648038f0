from archehr.cli.main import run

run()
