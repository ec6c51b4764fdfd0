"""Loaded by every Python a mutation run starts (tools/mutation.sh puts this folder on PYTHONPATH).

A test that starts ``python -m rulebook_compiler`` inherits MUTANT_UNDER_TEST, so the subprocess runs
the mutated copy with the same mutant switched on, as it should. The exception is mutmut's
first pass ("stats"), which records which tests reach which function: a subprocess cannot
report back, and recording there needs mutmut's config from a working directory the test may
have changed; so in that pass a subprocess runs the code unmutated.
"""

import os

if os.environ.get("MUTANT_UNDER_TEST") == "stats":
    os.environ["MUTANT_UNDER_TEST"] = ""
