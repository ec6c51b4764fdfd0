from .cli import main

main(prog_name="rulebook")  # hints name the command as users type it, also under python -m rulebook_compiler
