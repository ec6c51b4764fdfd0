#!/usr/bin/env bash
# Mutation testing of the core modules, a local profile (see docs/mutation.md).
#   pip install -e '.[test,mutation]'
#   tools/mutation.sh 'rulebook_compiler.conditions.*'      # one module's mutants (dotted name, glob)
#   tools/mutation.sh                              # every core module ([tool.mutmut] only_mutate)
# Prints killed / total per module at the end. Environment: MUTMUT_CHILDREN (default 2,
# parallel test processes), MUTMUT_TIMEOUT (default 3600 s for the whole run).
set -euo pipefail
cd "$(dirname "$0")/.."
# Tests that start `python -m rulebook_compiler` must run the mutated copy, with the same mutant
# switched on (mutmut passes it in MUTANT_UNDER_TEST, which a subprocess inherits).
export PYTHONPATH="$PWD/mutants:$PWD/tools/mutation_site"
# The folder must exist before Python starts: a sys.path entry that is not a directory when it is first
# read is cached as "nothing here" for the whole process, so mutmut's own process, which creates
# mutants/, then imported the package from an installed copy (an editable install's, or none: "No module
# named ...") in its stats pass. That was the first run in every fresh work tree failing (2 December 2026).
mkdir -p mutants
# hypothesis draws the same examples every run, so a mutant's verdict is reproducible
export CI=1
# A test's subprocess imports the mutated copy, whose modules hold every mutant (build.py: 2 MB):
# compiled again by every `python -m rulebook_compiler` where bytecode is not written, a subprocess test took
# minutes. Written once into mutants/ (never the sources), they are compiled once.
unset PYTHONDONTWRITEBYTECODE
status=0
timeout "${MUTMUT_TIMEOUT:-3600}" python3 -m mutmut run --max-children "${MUTMUT_CHILDREN:-2}" "$@" || status=$?
python3 -m mutmut results --all true | python3 "$(dirname "$0")/mutation_summary.py" "$@"
exit "$status"
