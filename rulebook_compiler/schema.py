"""The published JSON Schema of the rulebook files, and a validator for it.

One schema serves editors (through ``rulebook schema``) and the checker. The
validator interprets the subset of JSON Schema used here, reporting every
problem with its position and, for an unknown key, the closest valid one.
Conditions are only sketched in the schema; ``conditions.py`` checks them.
"""

from __future__ import annotations

import json
import re
from functools import lru_cache
from pathlib import Path
from typing import Any

from .diagnostics import Diagnostic, did_you_mean
from .yamlsource import Document

SLUG = r"^[a-z0-9]+(-[a-z0-9]+)*$"


def _slug(example: str, description: str) -> dict:
    """A slug-valued property (a key, an id): its pattern, one example and what it names."""
    return {"type": "string", "pattern": SLUG, "examples": [example], "description": description}


CLAUSE_NUMBER = r"^[0-9A-Za-z][0-9A-Za-z.)-]{0,31}$"  # a printed rule number: 100.1a, 702.9, 3)
IDENT = r"^[a-z][a-z0-9_]*$"
DECISION = r"^[a-z][a-z0-9_]*(\.[a-z][a-z0-9_]*)*$"
EDITION_ID = r"^[0-9A-Za-z][0-9A-Za-z.-]*$"
CLAUSE_REF = r"^[a-z0-9]+(-[a-z0-9]+)*#[a-z0-9]+(-[a-z0-9]+)*$"
# A clause id of the same term: a slug, written apart so that its hint can say so.
SAME_TERM_ID = r"^(?:[a-z0-9]+(-[a-z0-9]+)*)$"
# A clause of the same term by its id, or of another term as TERM#CLAUSE.
LINEAGE_REF = r"^([a-z0-9]+(-[a-z0-9]+)*#)?[a-z0-9]+(-[a-z0-9]+)*$"
DATE = r"^[0-9]{4}(-[0-9]{2}(-[0-9]{2})?)?$"
# Each closed set of values with what each value means: editors list them as completions,
# with these descriptions (the enumDescriptions of VS Code's and the YAML language server's schemas).
_SECTION_KINDS = {
    "definition": "What the term is.",
    "how-to-play": "How a card or ability with the term is played.",
    "default-conditions": "What holds unless a card or rule says otherwise.",
    "special-conditions": "Exceptions and special cases.",
    "clarifications": "Rulings that settle questions the text raised.",
    "named": "A section under a heading of its own: give it a 'title'.",
}
SECTION_KINDS = list(_SECTION_KINDS)


def _enum(meanings: dict[str, str]) -> dict:
    """An enum whose values are listed with their meanings."""
    return {"enum": list(meanings), "enumDescriptions": list(meanings.values())}


_CONDITION = {
    "description": "A condition: a fact or predicate name, true/false, or one of "
                   "{not: C}, {all: [C...]}, {any: [C...]}, {is: {FACT: VALUE}}, "
                   "{in: {FACT: [VALUE...]}}, or a comparison on an ordered fact: "
                   "{before|at_most|after|at_least: {FACT: VALUE}} or {...: {FACT: {fact: OTHER}}}.",
    "anyOf": [
        {"type": "string", "pattern": IDENT,
         "description": "NAME: the bool fact or the predicate (a clause's 'defines') of that name holds, "
                        "like poisoned."},
        {"type": "boolean", "description": "true or false: a constant."},
        {"type": "object", "description": "{not: C}: C does not hold.",
         "properties": {"not": {"$ref": "#/$defs/condition", "examples": ["poisoned"],
                                                             "description": "The condition C that does not hold."}},
         "required": ["not"], "additionalProperties": False},
        {"type": "object", "description": "{all: [C, ...]}: every C holds (all: [] is true).",
         "properties": {"all": {"type": "array", "items": {"$ref": "#/$defs/condition"},
                                "examples": [["being_discarded", {"is": {"location": "discard_pile"}}]],
                                "description": "The conditions that must all hold, like "
                                               "[being_discarded, {is: {location: discard_pile}}]."}},
         "required": ["all"], "additionalProperties": False},
        {"type": "object", "description": "{any: [C, ...]}: some C holds (any: [] is false).",
         "properties": {"any": {"type": "array", "items": {"$ref": "#/$defs/condition"},
                                "examples": [["being_discarded", "poisoned"]],
                                "description": "The conditions of which at least one must hold, like "
                                               "[being_discarded, poisoned]."}},
         "required": ["any"], "additionalProperties": False},
        {"type": "object", "description": "{is: {FACT: VALUE}}: the enum fact has that value.",
         "properties": {"is": {"type": "object", "minProperties": 1, "maxProperties": 1,
                               "additionalProperties": {"type": "string"},
                               "examples": [{"location": "discard_pile"}],
                               "description": "One enum fact and the value it has, like {location: discard_pile}."}},
         "required": ["is"], "additionalProperties": False},
        {"type": "object", "description": "{in: {FACT: [VALUE, ...]}}: the enum fact has one of these values.",
         "properties": {"in": {"type": "object", "minProperties": 1, "maxProperties": 1,
                               "additionalProperties": {"type": "array", "items": {"type": "string"}},
                               "examples": [{"discarded_from": ["hand", "deck"]}],
                               "description": "One enum fact and the values it may have, like "
                                              "{discarded_from: [hand, deck]}."}},
         "required": ["in"], "additionalProperties": False},
        *({"type": "object", "description": f"{words} the value (or the other fact's value), "
                                             "in the order of an ordered fact's values.",
           "properties": {op: {"type": "object", "minProperties": 1, "maxProperties": 1,
                               "examples": [{"current_step": "verify_blocked"},
                                            {"ability_step": {"fact": "current_step"}}],
                               "description": "One ordered fact and its bound: a value, like "
                                              "{current_step: verify_blocked}, or another fact, like "
                                              "{ability_step: {fact: current_step}}.",
                               "additionalProperties": {"anyOf": [
                                   {"type": "string", "pattern": IDENT,
                                    "description": "The bound: a value of the ordered fact."},
                                   {"type": "object",
                                    "description": "{fact: OTHER}: the bound is the value of OTHER.",
                                    "properties": {"fact": {"type": "string", "pattern": IDENT,
                                                            "examples": ["current_step"],
                                                            "description": "OTHER: an ordered fact with the same "
                                                                           "values in the same order."}},
                                    "required": ["fact"], "additionalProperties": False}]}}},
           "required": [op], "additionalProperties": False}
          for op, words in (("before", "The fact's value comes strictly before"),
                            ("at_most", "The fact's value is, or comes before,"),
                            ("after", "The fact's value comes strictly after"),
                            ("at_least", "The fact's value is, or comes after,"))),
    ],
}

# Examples that several properties show (each a valid value where it is given: tests/test_schema_examples.py).
_EX_CLAUSE = {"id": "removes-effects", "text": "A heal ability removes the effects of poison."}
_EX_DECISION = {"name": "heal.may_target", "type": "bool",
                "meaning": "Whether a heal ability may target the character."}
_EX_PREDICATE = {"name": "healable", "meaning": "The character can be the target of a heal ability by default.",
                 "as": {"any": ["being_discarded", "poisoned"]}}
_EX_ROWS = [{"keys": ["heal", "band"], "value": "hand"},
            {"keys": {"ability": "draw", "poisoned": True}, "value": "deck"}]
_EX_TABLE = {"decision": "targeting.location", "key": "ability",
             "rows": [{"keys": ["heal", "band"], "value": "hand"}], "otherwise": "anywhere"}
_EX_STUNNED = {"name": "stunned", "type": "bool", "meaning": "The character is stunned."}
_EX_CONSTRAINT = {"id": "discard-pile-not-being-discarded",
                  "text": "A character already in a discard pile is not being discarded.",
                  "never": {"all": ["being_discarded", {"is": {"location": "discard_pile"}}]}}

_TEXT = {"type": "string", "minLength": 1}
# What a corrections log entry says changed (rulebook_compiler.lock): TERM, TERM#CLAUSE, fact:NAME, constraint:ID.
# The SHA-256 digest an entry of the corrections log records of the edition it locked (rulebook_compiler.review).
DIGEST = r"^[0-9a-f]{64}$"
CHANGED_REF = r"^([a-z0-9]+(-[a-z0-9]+)*(#[a-z0-9]+(-[a-z0-9]+)*)?|fact:[a-z][a-z0-9_]*|constraint:[a-z0-9]+(-[a-z0-9]+)*)$"
_KEY_VALUE = {"type": ["string", "boolean"], "pattern": IDENT,
              "description": "A value of a key fact: an enum value, or true/false for a bool fact."}
_NOTES = {"type": ["string", "null"]}
_READER_NOTES = {"type": ["string", "null"],
                 "examples": ["Heal was called Restore in the first printing.", None],
                 "description": "Notes for readers: the publisher's or the editors' remarks that the site shows "
                                "with the text. Part of a published edition's locked content."}
_EDITOR_NOTES = {"type": ["string", "null"],
                 "examples": ["Transcribed from page 12 of the 2012 booklet; 'it' read as the target.", None],
                 "description": "Notes for editors: modelling and transcription remarks (source files, readings, "
                                "repairs, reconstruction marks). Shown on the site only with the plugin option "
                                "show_editor_notes; not part of a published edition's locked content."}

def _dated(printed: str, date: str, version: str) -> dict:
    return {
        "type": "object",
        "examples": [{"date": date, "version": version}],
        "description": f"The entry's \"{printed}\" as the publisher prints it, a date and a version label, "
                       f"like {{date: {date}, version: {version}}}; check verifies it against the editions "
                       "that carry that label.",
        "properties": {
            "date": {"type": ["string", "null"], "pattern": DATE,
                     "examples": ["2026-03-13", "2015-08"],
                     "description": "The date printed, as YYYY-MM-DD (or YYYY-MM, YYYY)."},
            "version": {"type": "string", "pattern": EDITION_ID,
                        "examples": ["11.0.0"],
                        "description": "The publisher's version label printed (11.0.0 for \"v11.0.0\"): an "
                                       "edition's 'version', else its id."},
        },
        "required": ["version"],
        "additionalProperties": False,
    }


# Snippets an editor offers where a new term, clause, rule, table or procedure starts
# (defaultSnippets of VS Code's and the YAML language server's schemas). ${N:text} is a
# placeholder with its default text; with the defaults kept, each is valid where it is
# offered, and the new term checks against a vocabulary with the fact a_fact
# (tests/test_schema_examples.py).
_SNIPPETS = {
    "term": {"label": "New term", "description": "A term file: one decision, one section, one clause with one rule.",
             "body": {"id": "${1:term-id}", "name": "${2:Term Name}",
                      "decisions": [{"name": "${3:term_id.may_target}", "type": "bool",
                                     "meaning": "${4:Whether the ability may target the character.}"}],
                      "sections": [{"key": "definition", "kind": "definition", "clauses": [
                          {"id": "${5:clause-id}", "text": "${6:The publisher's wording, verbatim.}",
                           "rules": [{"decision": "${3:term_id.may_target}", "requires": "${7:a_fact}"}]}]}]}},
    "clause": {"label": "New clause", "description": "A clause: its id and the publisher's text.",
               "body": {"id": "${1:clause-id}", "text": "${2:The publisher's wording, verbatim.}"}},
    "rule": {"label": "New rule", "description": "A rule: the decision it answers, true where a condition holds.",
             "body": {"decision": "${1:term_id.may_target}", "requires": "${2:a_fact}"}},
    "table": {"label": "New table", "description": "A table: a decision's answer for values of a key fact.",
              "body": {"decision": "${1:term_id.location}", "key": "${2:an_enum_fact}",
                       "rows": [{"keys": ["${3:a_value}"], "value": "${4:an_answer}"}],
                       "otherwise": "${5:another_answer}"}},
    "procedure": {"label": "New procedure", "description": "Steps: the ids of this term's clauses, in order.",
                  "body": {"procedure": "${1:term_id.order}", "order": ["${2:step-1}", "${3:step-2}"]}},
}

_RULE = {
    "type": "object",
    "defaultSnippets": [_SNIPPETS["rule"]],
    "description": "A contribution to a decision: value, requires, forbids or permits, "
                   "scoped by when, optionally an exception to other clauses' rules.",
    "properties": {
        "decision": {"type": "string", "pattern": DECISION,
                     "examples": ["heal.may_target"],
                     "description": "The decision the rule contributes to, declared by a term of the edition, "
                                    "like heal.may_target."},
        "id": _slug("from-hand-or-deck", "Optional: names the rule when a clause has several, like from-hand-or-deck."),
        "when": {"$ref": "#/$defs/condition",
                 "examples": [{"is": {"phase": "battle"}}, "poisoned"],
                 "description": "The situations where the rule applies and answers (default: always)."},
        "value": {"type": ["boolean", "string"],
                  "examples": [True, "hand"],
                  "description": "The answer wherever 'when' holds: true or false for a bool decision, one of "
                                 "its values for an enum decision."},
        "requires": {"$ref": "#/$defs/condition",
                     "examples": ["healable"],
                     "description": "For a bool decision: true where this condition holds, false where it does "
                                    "not."},
        "forbids": {"$ref": "#/$defs/condition",
                    "examples": [{"is": {"phase": "battle"}}],
                    "description": "For a bool decision: false where this condition holds; no answer where it "
                                   "does not."},
        "permits": {"$ref": "#/$defs/condition",
                    "examples": [{"all": ["poisoned", {"is": {"phase": "battle"}}]}],
                    "description": "For a bool decision: true where this condition holds; no answer where it "
                                   "does not."},
        "exception_to": {"type": "array", "items": {"type": "string", "pattern": CLAUSE_REF},
                         "examples": [["heal#healable"]],
                         "description": "The clauses (TERM#CLAUSE, like heal#healable) whose rules this rule "
                                        "overrides wherever it answers."},
        "notes": {**_NOTES, "examples": ["'Cannot' is read as forbidding, not as requiring the opposite.", None],
                            "description": "The editors' remarks on how this rule models the text; "
                                           "not part of a published edition's locked content."},
    },
    "required": ["decision"],
    "additionalProperties": False,
}

_TERM: dict[str, Any] = {
    "type": "object",
    "defaultSnippets": [_SNIPPETS["term"]],
    "description": "One term of one edition: editions/EDITION/TERM.yaml.",
    "properties": {
        "id": {"type": "string", "pattern": SLUG,
               "examples": ["heal", "battle-resolution"],
               "description": "The term's id, a slug that is also the file's name: heal for "
                              "editions/EDITION/heal.yaml."},
        "name": {**_TEXT, "examples": ["Heal", "Battle Resolution"],
                          "description": "The term's name as printed, like \"Heal\"."},
        "withdrawn": {"type": "boolean",
                      "examples": [True],
                      "description": "true: this edition removes the term (the file then holds only 'id' and "
                                     "'withdrawn: true')."},
        "aliases": {"type": "array", "items": _TEXT,
                    "examples": [["Restore abilities"]],
                    "description": "Search synonyms that the texts state, like [Restore abilities]."},
        "updated": _dated("Last Updated", "2026-03-13", "11.0.0"),
        "released": _dated("Released", "2015-08-10", "3.0.0"),
        "notes": _READER_NOTES,
        "editor_notes": _EDITOR_NOTES,
        "decisions": {"type": "array", "examples": [[_EX_DECISION]],
                                       "description": "The questions that this term's clauses answer.", "items": {
            "type": "object",
            "properties": {
                "name": {"type": "string", "pattern": DECISION,
                         "examples": ["heal.may_target", "targeting.location"],
                         "description": "The decision's name, dotted identifiers like heal.may_target, that "
                                        "rules give as their 'decision'."},
                "type": {**_enum({"bool": "The answer is true or false.",
                                  "enum": "The answer is one of the decision's 'values'."}),
                         "examples": ["bool", "enum"],
                         "description": "bool: the answer is true or false; enum: it is one of 'values'."},
                "values": {"type": "array", "items": {"type": "string", "pattern": IDENT}, "minItems": 1,
                           "examples": [["hand", "deck", "anywhere"]],
                           "description": "An enum decision's answers, identifiers like [hand, deck, anywhere]."},
                "meaning": {**_TEXT, "examples": ["Whether a heal ability may target the character."],
                                     "description": "The question in words, like \"Whether a heal ability may "
                                                    "target the character.\""},
                "given": {"$ref": "#/$defs/condition",
                          "examples": [{"is": {"phase": "battle"}}],
                          "description": "Optional: the situations the question is asked in (default: all)."},
            },
            "required": ["name", "type", "meaning"],
            "additionalProperties": False,
        }},
        "sections": {"type": "array",
                     "examples": [[{"key": "definition", "kind": "definition", "clauses": [_EX_CLAUSE]}]],
                                      "description": "The term's sections, in order.", "items": {
            "type": "object",
            "properties": {
                "key": {"type": "string", "pattern": SLUG,
                        "examples": ["definition", "special-conditions"],
                        "description": "The section's key, a slug unique in the term, like definition."},
                "kind": {**_enum(_SECTION_KINDS),
                         "examples": ["definition", "named"],
                         "description": "What the section is: definition, how-to-play, default-conditions, "
                                        "special-conditions, clarifications, or named (then 'title' is required)."},
                "title": {"type": ["string", "null"],
                          "examples": ["In a Battle", None],
                          "description": "The printed heading, or null; required when kind is named."},
                "clauses": {"type": "array", "items": {"$ref": "#/$defs/clause"},
                            "examples": [[_EX_CLAUSE]],
                            "description": "The section's clauses, in order."},
            },
            "required": ["key", "kind", "clauses"],
            "additionalProperties": False,
        }},
    },
    "required": ["id"],
    "additionalProperties": False,
}

_CLAUSE: dict[str, Any] = {
    "type": "object",
    "defaultSnippets": [_SNIPPETS["clause"]],
    "description": "A clause: a passage of the publisher's text, verbatim, and what it means (a predicate "
                   "defined, rules, steps or a table); cited as TERM#CLAUSE.",
    "properties": {
        "id": {"type": "string", "pattern": SLUG,
               "examples": ["removes-effects", "step-1"],
               "description": "The clause's id, a slug unique in the term and kept across editions while the "
                              "rule is the same (reworded or not), like removes-effects."},
        "number": {"type": "string", "pattern": CLAUSE_NUMBER, "examples": ["100.1a", "702.9"],
                   "description": "Optional: the number the publisher prints for the rule, like 100.1a, kept "
                                  "apart from its id (a renumbered rule keeps its id, and its new number is "
                                  "data). Letters, digits and . ) - only, at most 32 characters."},
        "text": {**_TEXT, "examples": ["A heal ability can be used to remove the effects of poison."],
                          "description": "The publisher's wording of the clause, verbatim."},
        "notes": _READER_NOTES,
        "editor_notes": _EDITOR_NOTES,
        "rules_checked": {"type": "string", "pattern": r"^[0-9a-f]{12}$", "examples": ["1c9c8013783c"],
                          "description": "Editor data: the editors' record that they checked the clause's rules "
                                         "against its words, as the digest of those words (the first 12 hex digits "
                                         "of the SHA-256 of its words, case and typography folded, joined by one "
                                         "space). Write the value that rulebook diff's drift flag or check's hint "
                                         "gives, quoted. Where the words change in substance and the answers do "
                                         "not, rulebook diff --fail-on rule-change counts the change as a rule "
                                         "change until the record matches the words; check reports a record "
                                         "that names other words. Not part of a published edition's locked "
                                         "content."},
        "links": {"type": "array", "items": {
            "type": "object",
            "properties": {"phrase": {**_TEXT, "examples": ["Battle Resolution"],
                                               "description": "The words of the text that mention the term, like "
                                                             "\"Battle Resolution\"."},
                           "term": _slug("battle-resolution", "The id of the term mentioned, like battle-resolution."),
                           "clause": _slug("step-1", "Optional: the id of the clause of that term mentioned.")},
            "required": ["phrase", "term"],
            "additionalProperties": False,
        }, "examples": [[{"phrase": "Battle Resolution", "term": "battle-resolution"}]],
           "description": "Mentions of other terms in the text, which stays verbatim."},
        "defines": {
            "type": "object",
            "examples": [_EX_PREDICATE],
            "description": "A named predicate, which conditions of the edition may use by its name.",
            "properties": {"name": {"type": "string", "pattern": IDENT,
                                    "examples": ["healable"],
                                    "description": "The predicate's name, like healable: an identifier unique "
                                                   "in the edition, sharing the namespace of facts."},
                           "meaning": {**_TEXT, "examples": [_EX_PREDICATE["meaning"]],
                                                "description": "The predicate in words, like \"The character "
                                                               "can be the target of a heal ability by default.\""},
                           "as": {"$ref": "#/$defs/condition",
                                  "examples": [{"any": ["being_discarded", "poisoned"]}],
                                  "description": "The condition the name stands for, like {any: [being_discarded, "
                                                 "poisoned]}; it may use other predicates, without cycles."}},
            "required": ["name", "as"],
            "additionalProperties": False,
        },
        "rules": {"type": "array", "items": {"$ref": "#/$defs/rule"},
                  "examples": [[{"decision": "heal.may_target", "requires": "healable"}]],
                  "description": "The clause's contributions to decisions."},
        "steps": {
            "type": "object",
            "defaultSnippets": [_SNIPPETS["procedure"]],
            "examples": [{"procedure": "battle_resolution.order", "order": ["step-1", "step-2", "step-3"]}],
            "description": "An ordered procedure whose steps are clauses of this term.",
            "properties": {"procedure": {"type": "string", "pattern": DECISION,
                                         "examples": ["battle_resolution.order"],
                                         "description": "The procedure's name, dotted identifiers like "
                                                        "battle_resolution.order."},
                           "order": {"type": "array", "minItems": 1,
                                     "items": {"type": "string", "pattern": SLUG},
                                     "examples": [["step-1", "step-2", "step-3"]],
                                     "description": "The ids of this term's clauses that are the steps, in "
                                                    "order, like [step-1, step-2, step-3]."}},
            "required": ["procedure", "order"],
            "additionalProperties": False,
        },
        "table": {
            "type": "object",
            "defaultSnippets": [_SNIPPETS["table"]],
            "examples": [_EX_TABLE],
            "description": "Value rules over key facts, written compactly. A term's tables for one decision "
                           "are one table: rows must not overlap with different values, and one 'otherwise' "
                           "answers wherever no row matches.",
            "properties": {
                "decision": {"type": "string", "pattern": DECISION,
                             "examples": ["targeting.location"],
                             "description": "The decision the rows answer."},
                "key": {"type": ["string", "array"], "pattern": IDENT, "minItems": 1,
                        "items": {"type": "string", "pattern": IDENT},
                        "examples": ["ability", ["ability", "poisoned"]],
                        "description": "The enum or bool fact the rows are keyed by, or a list of them "
                                       "(then each row maps every key fact to its value or values)."},
                "rows": {"type": "array", "minItems": 1, "items": {
                    "type": "object",
                    "properties": {
                        "keys": {"type": ["array", "object"], "minItems": 1, "minProperties": 1,
                                 "items": _KEY_VALUE,
                                 "additionalProperties": {"type": ["string", "boolean", "array"], "pattern": IDENT,
                                                          "minItems": 1, "items": _KEY_VALUE},
                                 "examples": [["heal", "band"], {"ability": ["draw", "discard"], "poisoned": True}],
                                 "description": "With one key: the list of its values that the row matches. "
                                                "With a list of keys: each key fact mapped to a value or a "
                                                "list of values."},
                        "value": {"type": ["string", "boolean"],
                                  "examples": ["hand", True],
                                  "description": "The decision's answer where the row matches."}},
                    "required": ["keys", "value"],
                    "additionalProperties": False,
                }, "examples": [_EX_ROWS],
                   "description": "The rows: each matches some values of the key facts and gives the decision's "
                                  "answer there."},
                "otherwise": {"type": ["string", "boolean"],
                              "examples": ["anywhere", False],
                              "description": "The answer wherever no row of the term's tables for this "
                                             "decision matches (\"All other ...\")."},
            },
            "required": ["decision", "key"],
            "additionalProperties": False,
        },
        # Declared lineage: what the clause was in the edition before the one whose
        # file gives it (docs/format.md, Lineage). At most one of the four.
        "formerly": {"type": "string", "pattern": SAME_TERM_ID,
                     "examples": ["step-1"],
                     "description": "Renamed: the id this clause had in the same term in the edition "
                                    "before."},
        "split_from": {"type": "string", "pattern": LINEAGE_REF,
                       "examples": ["targets", "heal#targets"],
                       "description": "Split: the clause of the edition before that this clause is a part "
                                      "of (its id in the same term, or TERM#CLAUSE); several clauses may "
                                      "name the same one."},
        "merged_from": {"type": "array", "minItems": 2,
                        "items": {"type": "string", "pattern": LINEAGE_REF},
                        "examples": [["removes-poison", "removes-paralysis"]],
                        "description": "Merged: the clauses of the edition before that this clause "
                                       "joins (ids in the same term, or TERM#CLAUSE)."},
        "moved_from": {"type": "string", "pattern": CLAUSE_REF,
                       "examples": ["heal#in-battle"],
                       "description": "Moved: the clause of another term in the edition before that this "
                                      "clause is (TERM#CLAUSE; its id may differ)."},
    },
    "required": ["id", "text"],
    "additionalProperties": False,
}


def _nullable(prop: dict) -> dict:
    """A property of a whole-term file as a patch may give it: null removes the key."""
    if "type" in prop:
        types = [prop["type"]] if isinstance(prop["type"], str) else list(prop["type"])
        return {**prop, "type": types + ["null"] * ("null" not in types)}
    if "enum" in prop:
        return {**prop, "enum": prop["enum"] + [None], "enumDescriptions": prop["enumDescriptions"] + [
            "null: remove the key."]} if None not in prop["enum"] else prop
    return prop  # a condition: null is checked where conditions are parsed


_SECTION = _TERM["properties"]["sections"]["items"]
_KEEP = ("id", "text")  # a clause's keys that a patch can change but not remove

_PATCH_OPERATION = {
    "type": "object",
    "description": "One operation of a patch, applied in order to the term as the previous operations "
                   "left it: exactly one of change, replace, add, remove, move (a clause, named by its "
                   "id) or add_section, remove_section, change_section, move_section (a section, named "
                   "by its key), with the keys that go with it.",
    "properties": {
        "change": _slug("removes-effects", "Change the clause with this id: the keys under 'set' replace its own."),
        "set": {"type": "object",
                "examples": [{"text": "A heal ability removes the effects of poison and paralysis.", "notes": None}],
                "description": "The keys of the clause to change, as a clause gives them; the keys not "
                               "given are kept, and null removes one (not 'id' or 'text').",
                "properties": {k: (v if k in _KEEP else _nullable(v)) for k, v in _CLAUSE["properties"].items()},
                "additionalProperties": False},
        "replace": _slug("removes-effects", "Replace the clause with this id by the clause under 'with'."),
        "with": {"$ref": "#/$defs/clause",
                 "examples": [{"id": "removes-effects", "text": "A heal ability removes every effect."}],
                                           "description": "The clause that 'replace' puts in, written whole."},
        "add": {"$ref": "#/$defs/clause",
                "examples": [{"id": "in-battle", "text": "A heal ability can be used in battle."}],
                "description": "A new clause, written whole, put at 'before', 'after' or 'section'."},
        "remove": _slug("old-note", "Remove the clause with this id."),
        "move": _slug("in-battle", "Move the clause with this id to 'before', 'after' or 'section'."),
        "before": _slug("removes-effects", "Put the clause (or section) just before the clause (or section) with this id "
                                  "(key)."),
        "after": _slug("removes-effects", "Put the clause (or section) just after the clause (or section) with this id "
                                 "(key)."),
        "section": _slug("clarifications", "Put the clause at the end of the section with this key."),
        "add_section": {**_SECTION, "examples": [{"key": "clarifications", "kind": "clarifications",
                                                  "clauses": [{"id": "in-battle",
                                                               "text": "A heal ability can be used in battle."}]}],
                                    "description": "A new section, written whole, put at 'before' or 'after' "
                                                   "(a section key), else at the end."},
        "remove_section": _slug("clarifications", "Remove the section with this key, with its clauses."),
        "change_section": _slug("special-conditions", "Change the 'title' or 'kind' of the section with this key."),
        "move_section": _slug("clarifications", "Move the section with this key to 'before' or 'after' another."),
        "title": {"type": ["string", "null"],
                  "examples": ["In a Battle", None],
                  "description": "The section's new title (change_section); null removes it."},
        "kind": {**_enum(_SECTION_KINDS), "examples": ["named"],
                                        "description": "The section's new kind (change_section)."},
    },
    "additionalProperties": False,
}

_TERM_PATCH = {
    "type": "object",
    "description": "A term file that patches the term as the previous edition resolved it: "
                   "editions/EDITION/TERM.yaml with 'patch' instead of 'sections'. The other keys given "
                   "replace the previous edition's; null removes one.",
    "properties": {
        **{k: (v if k in ("id", "name") else _nullable(v))
           for k, v in _TERM["properties"].items() if k not in ("sections", "withdrawn")},
        "patch": {"type": "array", "items": {"$ref": "#/$defs/patch-operation"},
                  "examples": [[{"change": "removes-effects",
                                 "set": {"text": "A heal ability removes the effects of poison and paralysis."}},
                                {"remove": "old-note"}]],
                  "description": "The operations, applied in order."},
    },
    "required": ["id", "patch"],
    "additionalProperties": False,
}

_RULEBOOK = {
    "type": "object",
    "description": "rulebook.yaml: the rulebook and its editions, oldest first.",
    "properties": {
        "title": {**_TEXT, "examples": ["Redemption Exegesis Guide"],
                           "description": "The rulebook's title, like \"Redemption Exegesis Guide\"."},
        "publisher": {**_TEXT, "examples": ["Cactus Game Design"],
                               "description": "Who publishes the rules, like \"Cactus Game Design\"."},
        "notes": _READER_NOTES,
        "editor_notes": _EDITOR_NOTES,
        "editions": {"type": "array", "minItems": 1,
                     "examples": [[{"id": "1.0.0", "title": "First printing", "date": "2015-08-10",
                                    "status": "published"},
                                   {"id": "2.0.0", "title": "Second printing", "date": None, "status": "draft"}]],
                     "description": "The editions, oldest first; each overlays the one before.", "items": {
            "type": "object",
            "properties": {
                "id": {"type": "string", "pattern": EDITION_ID,
                       "examples": ["3.0.0", "4.0.0-draft"],
                       "description": "The edition's id, like \"3.0.0\" or \"4.0.0-draft\": its folder is "
                                      "editions/ID."},
                "title": {**_TEXT, "examples": ["REG, Heal entry of 10/10/2012", "First printing"],
                                   "description": "The edition's title, like \"REG, Heal entry of 10/10/2012\"."},
                "date": {"type": ["string", "null"], "pattern": DATE,
                         "examples": ["2015-08-10", "2018-01", None],
                         "description": "The edition's date, as YYYY-MM-DD, YYYY-MM or YYYY (quoted), or null."},
                "status": {**_enum({"published": "Locked in rulebook.lock by rulebook publish; changed only by a "
                                                 "recorded correction.",
                                    "draft": "Not locked: edited freely."}),
                           "examples": ["published", "draft"],
                           "description": "published: locked in rulebook.lock by rulebook publish, it never "
                                          "changes silently; draft: not locked, edited freely."},
                "sources": {"type": "array", "items": _TEXT,
                            "examples": [["sources/001_286a30dd4942d17f.txt"]],
                            "description": "The source texts the edition cites, relative to the rulebook folder, "
                                           "like [sources/001_286a30dd4942d17f.txt]."},
                "notes": _READER_NOTES,
                "editor_notes": _EDITOR_NOTES,
                "version": {"type": "string", "pattern": EDITION_ID,
                            "examples": ["11.0.0"],
                            "description": "The publisher's version label of this edition, where it is not "
                                           "the id: what a term's 'updated' and 'released' name."},
                "not_held_before": {**_TEXT, "examples": ["Versions 6 to 10 (2019 to 2025) are not held."],
                                    "description": "For readers: the versions the publisher issued between the "
                                                   "edition before this one and this one that the rulebook does "
                                                   "not hold; a term's history says so between the two."},
                "chapters": {"type": "array", "items": {
                    "type": "object",
                    "description": "A chapter of the guide: its title and its terms, in the order printed.",
                    "properties": {
                        "title": {**_TEXT, "examples": ["Glossary of Terms"],
                                  "description": "The chapter's title as printed, like \"Glossary of Terms\"."},
                        "terms": {"type": "array", "minItems": 1, "items": {"type": "string", "pattern": SLUG},
                                  "examples": [["heal", "interrupt"]],
                                  "description": "The ids of the chapter's terms, in the order the guide prints "
                                                 "them; each term of the edition is in one chapter."},
                    },
                    "required": ["title", "terms"],
                    "additionalProperties": False,
                }, "examples": [[{"title": "Effect Listing", "terms": ["discard", "heal"]}]],
                    "description": "The guide's chapters, in order, each with its terms in the order printed "
                                   "(the site's navigation); where given, every term of the edition is in one. "
                                   "Edition metadata: not locked."},
            },
            "required": ["id", "title", "date", "status"],
            "additionalProperties": False,
        }},
    },
    "required": ["title", "publisher", "editions"],
    "additionalProperties": False,
}

_FACT = {
    "type": "object",
    "description": "A fact: a yes/no (bool) or one of a list of values (enum) that conditions test.",
    "properties": {
        "name": {"type": "string", "pattern": IDENT,
                 "examples": ["being_discarded", "location"],
                 "description": "The fact's name, an identifier like being_discarded, unique among the facts and "
                                "predicates of the edition."},
        "type": {**_enum({"bool": "The fact holds or not.", "enum": "The fact has one of its 'values'."}),
                 "examples": ["bool", "enum"],
                 "description": "bool: the fact holds or not; enum: it has one of 'values'."},
        "values": {"type": "array", "minItems": 2, "items": {"type": "string", "pattern": IDENT},
                   "examples": [["draw", "upkeep", "preparation", "battle", "discard"]],
                   "description": "An enum fact's values, identifiers like [draw, upkeep, preparation, battle, "
                                  "discard] (first to last for an ordered fact)."},
        "meaning": {**_TEXT, "examples": ["The character is poisoned."],
                             "description": "What the fact says of a situation, like \"The character is "
                                            "poisoned.\""},
        "ordered": {"type": "boolean",
                    "examples": [True],
                    "description": "An enum fact whose values are listed in order (first to last): "
                                   "conditions may compare it with before, at_most, after, at_least."},
    },
    "required": ["name", "type", "meaning"],
    "additionalProperties": False,
}

_CONSTRAINT = {
    "type": "object",
    "description": "A situation that cannot happen: 'never' is a condition no situation meets.",
    "properties": {"id": _slug("discard-pile-not-being-discarded", "The constraint's id, a slug like discard-pile-not-being-discarded."),
                   "text": {**_TEXT, "examples": ["A character already in a discard pile is not being discarded."],
                                     "description": "The constraint in words, like \"A character already in a "
                                                    "discard pile is not being discarded.\""},
                   "never": {"$ref": "#/$defs/condition",
                             "examples": [{"all": ["being_discarded", {"is": {"location": "discard_pile"}}]}],
                             "description": "The condition no real game state satisfies, like "
                                            "{all: [being_discarded, {is: {location: discard_pile}}]}."}},
    "required": ["id", "text", "never"],
    "additionalProperties": False,
}

_VOCABULARY = {
    "type": "object",
    "description": "vocabulary.yaml: the facts conditions may test, and the constraints between them, "
                   "as the first edition has them (a later edition changes them in its _vocabulary.yaml).",
    "properties": {
        "facts": {"type": "array", "items": _FACT, "examples": [[
            {"name": "poisoned", "type": "bool", "meaning": "The character is poisoned."},
            {"name": "location", "type": "enum", "values": ["hand", "deck", "discard_pile"],
             "meaning": "Where the card is."}]],
                                                   "description": "The facts conditions may test."},
        "constraints": {"type": "array", "items": _CONSTRAINT,
                        "examples": [[_EX_CONSTRAINT]],
                        "description": "States that no real game reaches: conformance cases and diff witnesses "
                                       "are drawn only from situations where every 'never' is false."},
    },
    "required": ["facts"],
    "additionalProperties": False,
}

_NAMES = {"type": "array", "items": {"type": "string", "pattern": IDENT}}

_VOCABULARY_OVERLAY = {
    "type": "object",
    "description": "editions/EDITION/_vocabulary.yaml: how this edition's vocabulary differs from the "
                   "previous edition's (the first edition's is vocabulary.yaml). Withdrawals apply "
                   "first, then changes, then additions.",
    "properties": {
        "facts": {
            "type": "object",
            "examples": [{"add": [_EX_STUNNED], "withdraw": ["paralyzed"]}],
            "description": "Facts this edition adds, changes or withdraws.",
            "properties": {
                "add": {"type": "array", "examples": [[_EX_STUNNED]],
                                         "description": "Facts the previous edition does not have.",
                        "items": _FACT},
                "change": {"type": "array", "examples": [[{"name": "ability", "add_values": ["band"]}]],
                                            "description": "Facts of the previous edition, changed.",
                           "items": {
                               "type": "object",
                               "examples": [{"name": "ability", "add_values": ["band"], "withdraw_values": ["negate"]}],
                               "description": "A fact's new meaning, and enum values added or withdrawn.",
                               "properties": {
                                   "name": {"type": "string", "pattern": IDENT,
                                            "examples": ["ability"],
                                            "description": "The name of the previous edition's fact to change."},
                                   "meaning": {**_TEXT, "examples": ["The ability the card uses."],
                                                        "description": "The fact's meaning from this edition on."},
                                   "add_values": {**_NAMES, "examples": [["band"]],
                                                            "description": "Values of an enum fact added, "
                                                                          "after its others."},
                                   "withdraw_values": {**_NAMES, "examples": [["negate"]],
                                   "description": "Values of an enum fact "
                                                                               "withdrawn."},
                                   "order": {**_NAMES, "examples": [["draw", "upkeep", "battle", "discard"]],
                                                       "description": "An ordered fact's values in their "
                                                                     "order from this edition on (after values "
                                                                     "added and withdrawn): each value once."},
                               },
                               "required": ["name"],
                               "additionalProperties": False,
                           }},
                "withdraw": {**_NAMES, "examples": [["paralyzed"]],
                                       "description": "Facts of the previous edition that this edition drops."},
            },
            "additionalProperties": False,
        },
        "constraints": {
            "type": "object",
            "examples": [{"withdraw": ["discard-pile-not-being-discarded"]}],
            "description": "Constraints this edition adds, replaces or withdraws.",
            "properties": {
                "add": {"type": "array", "examples": [[{"id": "hand-not-in-battle",
                                                       "text": "A card in a hand is not in a battle.",
                                                       "never": {"all": ["in_battle", {"is": {"location": "hand"}}]}}]],
                                         "description": "Constraints the previous edition does not have.",
                        "items": _CONSTRAINT},
                "change": {"type": "array", "examples": [[_EX_CONSTRAINT]],
                                            "description": "Constraints of the previous edition, "
                                                           "replaced whole (same id).",
                           "items": _CONSTRAINT},
                "withdraw": {"type": "array", "examples": [["discard-pile-not-being-discarded"]],
                                              "description": "Ids of constraints this edition drops.",
                             "items": {"type": "string", "pattern": SLUG}},
            },
            "additionalProperties": False,
        },
    },
    "additionalProperties": False,
}

_CORRECTIONS = {
    "type": "object",
    "description": "corrections.yaml: the log of published editions locked (rulebook publish) and corrected "
                   "(rulebook correct), oldest first. Written by those commands; the site shows it.",
    "properties": {
        "corrections": {"type": "array", "examples": [[{"date": "2026-01-05", "edition": "5.0.0", "kind": "publish",
                                                          "reason": "First published edition."}]],
                                         "description": "The entries, oldest first.", "items": {
            "type": "object",
            "description": "One entry: the edition locked or corrected, when, why, and what changed.",
            "properties": {
                "date": {"type": "string", "pattern": r"^[0-9]{4}-[0-9]{2}-[0-9]{2}$",
                         "examples": ["2026-01-05"],
                         "description": "The day of the entry, YYYY-MM-DD."},
                "edition": {"type": "string", "pattern": EDITION_ID,
                            "examples": ["5.0.0"],
                            "description": "The published edition locked or corrected."},
                "kind": {**_enum({"publish": "The edition's first lock.",
                                  "transcription": "The editors corrected their transcription or its meaning; "
                                                   "the rule is as published.",
                                  "erratum": "The publisher changed a rule of the edition."}),
                         "examples": ["publish", "transcription", "erratum"],
                         "description": "publish: the edition's first lock; transcription: the editors "
                                        "corrected their transcription of the text or its meaning (the rule is "
                                        "as published); erratum: the publisher changed a rule of the edition."},
                "reason": {**_TEXT, "examples": ["The booklet's page 12 was transcribed without its last sentence."],
                                    "description": "Why, in a sentence or two; the site shows it."},
                "changed": {"type": "array", "items": {"type": "string", "pattern": CHANGED_REF},
                            "examples": [["heal#removes-effects", "fact:poisoned"]],
                            "description": "What the entry changed, by locked digest: clauses (TERM#CLAUSE), "
                                           "terms (TERM: its name, aliases, notes, decisions or sections), "
                                           "facts (fact:NAME) and constraints (constraint:ID) of the "
                                           "edition's vocabulary."},
                "removed": {"type": "array", "items": {"type": "string", "pattern": CHANGED_REF},
                            "examples": [["heal#old-wording"]],
                            "description": "The refs of 'changed' that name what the entry removed: they exist "
                                           "in the edition before the entry, not after it."},
                "lock": {"type": "string", "pattern": DIGEST,
                         "examples": ["0e215d8f74a28133539d1427c671b9657b560f8c0e17f936673cf6774714db6e"],
                         "description": "The digest of the edition that the entry locked (its digest in "
                                        "rulebook.lock then). Written by 'rulebook publish' and 'rulebook "
                                        "correct'; entries written before the field existed have none."},
            },
            "required": ["date", "edition", "kind", "reason"],
            "additionalProperties": False,
        }},
    },
    "required": ["corrections"],
    "additionalProperties": False,
}

_EX_RULING = {"id": "cure-in-battle", "question": "Can a cure target a poisoned character in battle?",
              "decision": "cure.may_target", "facts": {"phase": "battle", "poisoned": True}, "answer": False,
              "cites": ["cure#not-in-battle"], "status": "official",
              "source": {"who": "Rules committee", "where": "https://forum.example.org/t/1234", "date": "2024-05-01"}}

_RULING = {
    "type": "object",
    "description": "One ruling: a question answered by the publisher or the committee, kept as a test of the "
                   "model. 'rulebook check' holds each edition the ruling applies to to its answer.",
    "properties": {
        "id": _slug("cure-in-battle", "The ruling's id, a slug unique in the rulebook; a later edition's ruling "
                                      "with the same id replaces it from that edition on."),
        "question": {**_TEXT, "examples": ["Can a cure target a poisoned character in battle?"],
                     "description": "The question in words, as it was asked."},
        "decision": {"type": "string", "pattern": DECISION, "examples": ["cure.may_target"],
                     "description": "The decision the question asks about."},
        "facts": {"type": "object", "examples": [{"phase": "battle", "poisoned": True}],
                  "description": "The situation: facts of the edition's vocabulary and their values (true or "
                                 "false for a bool fact). Facts left out are open: the answer must hold "
                                 "whatever they are, within the constraints.",
                  "additionalProperties": {"type": ["string", "boolean"],
                                           "description": "The fact's value: true or false, or an enum value."}},
        "answer": {"type": ["string", "boolean"], "examples": [False, "discard_pile"],
                   "description": "The answer the ruling gives: one of the decision's values."},
        "cites": {"type": "array", "minItems": 1, "items": {"type": "string", "pattern": CLAUSE_REF},
                  "examples": [["cure#not-in-battle"]],
                  "description": "The clauses the ruling cites, as TERM#CLAUSE; each must exist in every "
                                 "edition the ruling applies to."},
        "source": {"type": "object", "examples": [_EX_RULING["source"]],
                   "description": "Where the ruling comes from.",
                   "properties": {
                       "who": {**_TEXT, "examples": ["Rules committee"], "description": "Who gave the ruling."},
                       "where": {**_TEXT, "examples": ["https://forum.example.org/t/1234"],
                                 "description": "Where it was given: a URL, a document and page, an event."},
                       "date": {"type": "string", "pattern": DATE, "examples": ["2024-05-01"],
                                "description": "When, YYYY-MM-DD (or YYYY-MM, YYYY), quoted."}},
                   "required": ["who", "where", "date"], "additionalProperties": False},
        "status": {**_enum({"official": "Given by the publisher: part of the rules.",
                            "committee": "The committee's reading of the text, not yet official."}),
                   "examples": ["official", "committee"],
                   "description": "official: given by the publisher; committee: the committee's reading."},
        "supersedes": {"type": "array", "items": {"type": "string", "pattern": SLUG},
                       "examples": [["cure-in-battle-2019"]],
                       "description": "Ids of earlier editions' rulings this one replaces: they stop applying "
                                      "from this edition on."},
        "notes": {**_NOTES, "examples": ["Asked at the 2024 nationals."],
                  "description": "Optional remarks for readers."},
    },
    "required": ["id", "question", "decision", "facts", "answer", "cites", "source", "status"],
    "additionalProperties": False,
}

_RULINGS = {
    "type": "object",
    "description": "editions/EDITION/_rulings.yaml: the rulings this edition adds or replaces, and those of "
                   "earlier editions it withdraws. A ruling applies from its edition on, until a later "
                   "edition withdraws, replaces or supersedes it.",
    "properties": {
        "rulings": {"type": "array", "items": _RULING, "examples": [[_EX_RULING]],
                    "description": "The rulings this edition adds, or replaces (same id)."},
        "withdrawn": {"type": "array", "items": {"type": "string", "pattern": SLUG},
                      "examples": [["cure-in-battle"]],
                      "description": "Ids of earlier editions' rulings that no longer hold from this edition on."},
    },
    "additionalProperties": False,
}

DEFS: dict[str, dict[str, Any]] = {"condition": _CONDITION, "rule": _RULE, "clause": _CLAUSE, "patch-operation": _PATCH_OPERATION}
ROOTS: dict[str, dict[str, Any]] = {"rulebook": _RULEBOOK, "vocabulary": _VOCABULARY, "term": _TERM,
         "vocabulary-overlay": _VOCABULARY_OVERLAY, "term-patch": _TERM_PATCH, "corrections": _CORRECTIONS,
         "rulings": _RULINGS}


# Every $id is this base and the name of the file that ships it in rulebook_compiler/schemas/, so that
# relative references resolve alike against the shipped files and the URLs.
SCHEMA_BASE = "https://rulebook-compiler.invalid/schema/"
BUNDLE_FILE = "rulebook.json"  # the $id the whole schema has always had
SCHEMA_DIR = Path(__file__).resolve().parent / "schemas"
_DRAFT = "https://json-schema.org/draft/2020-12/schema"


def kind_file(kind: str) -> str:
    return f"{kind}.schema.json"


def _refs(node: Any) -> set[str]:
    """The names of the $defs that ``node`` refers to, directly or through them."""
    found: set[str] = set()
    todo = [node]
    while todo:
        item = todo.pop()
        if isinstance(item, dict):
            ref = item.get("$ref", "")
            name = ref.rsplit("/", 1)[1] if ref.startswith("#/$defs/") else None
            if name and name not in found:
                found.add(name)
                todo.append(DEFS[name])
            todo.extend(item.values())
        elif isinstance(item, list):
            todo.extend(item)
    return found


def kind_schema(kind: str) -> dict:
    """One file kind as a schema of its own (a schema resource with a stable $id), holding the
    definitions it uses: what an editor maps a file to, no JSON pointer needed."""
    return {"$id": SCHEMA_BASE + kind_file(kind), **ROOTS[kind],
            "$defs": {name: DEFS[name] for name in DEFS if name in _refs(ROOTS[kind])}}


def published_schema(kind: str | None = None) -> dict:
    """The JSON Schema document of one file kind, or (``kind`` None) of them all: then each kind is
    a $defs entry (``#/$defs/term``, ``term-patch`` for a term file that patches the previous
    edition's term, ...) with its own $id, and the top level accepts any of them, so that one
    file serves every file of a rulebook. ``rulebook_compiler/schemas/`` ships each as a file."""
    if kind is not None:
        return {"$schema": _DRAFT, **kind_schema(kind)}
    return {
        "$schema": _DRAFT,
        "$id": SCHEMA_BASE + BUNDLE_FILE,
        "title": "rulebook-compiler source files",
        "anyOf": [{"$ref": f"#/$defs/{name}"} for name in ROOTS],
        "$defs": {**{name: kind_schema(name) for name in ROOTS}, **DEFS},
    }


def schema_text(kind: str | None = None) -> str:
    """The schema as ``rulebook schema`` prints it and rulebook_compiler/schemas/ ships it."""
    return json.dumps(published_schema(kind), indent=2) + "\n"


def shipped_files() -> dict[str, str]:
    """Each file of rulebook_compiler/schemas/ by name, with the text it must hold."""
    return {BUNDLE_FILE: schema_text(), **{kind_file(kind): schema_text(kind) for kind in ROOTS}}


_TYPES = {
    "object": lambda v: isinstance(v, dict),
    "array": lambda v: isinstance(v, list),
    "string": lambda v: isinstance(v, str),
    "boolean": lambda v: isinstance(v, bool),
    "integer": lambda v: isinstance(v, int) and not isinstance(v, bool),
    "null": lambda v: v is None,
}
_TYPE_NAMES = {"object": "a mapping", "array": "a list", "string": "a string",
               "boolean": "true or false", "integer": "a whole number", "null": "null"}


def describe_value(value: Any) -> str:
    for name, test in _TYPES.items():
        if test(value):
            return _TYPE_NAMES[name]
    return type(value).__name__


@lru_cache(maxsize=None)
def compiled_pattern(p: str) -> re.Pattern:
    """A pattern of the schema; use it with ``fullmatch``: in Python '$' also
    matches before a final line break, so "5.0.0\n" would pass ``match``."""
    return re.compile(p)


def validate(doc: Document, kind: str) -> list[Diagnostic]:
    """Check a document against the schema of its kind ('rulebook', 'vocabulary', 'term', 'term-patch')."""
    problems: list[Diagnostic] = []
    _check(doc, doc.data, ROOTS[kind], (), problems)
    return problems


def _check(doc: Document, value: Any, schema: dict, path: tuple, out: list[Diagnostic]) -> None:
    ref = schema.get("$ref")
    if ref:
        if ref == "#/$defs/condition":
            return  # conditions.py parses these with messages that know the vocabulary
        schema = DEFS[ref.rsplit("/", 1)[1]]
    if "enum" in schema:
        if value not in schema["enum"]:
            choices = ", ".join(map(str, schema["enum"]))
            hint = did_you_mean(str(value), map(str, schema["enum"])) if isinstance(value, str) else None
            out.append(Diagnostic(doc.at(path), f"{_name(doc.data, path)} must be one of: {choices}; got {value!r}",
                                  hint))
        return
    types = schema.get("type")
    # one type (most schemas) is tested without a generator: a twentieth of validation's time
    if types and not (_TYPES[types](value) if isinstance(types, str) else any(_TYPES[t](value) for t in types)):
        types = [types] if isinstance(types, str) else types
        wanted = " or ".join(_TYPE_NAMES[t] for t in types)
        out.append(Diagnostic(doc.at(path), f"{_name(doc.data, path)} must be {wanted}, not {describe_value(value)}",
                              _type_hint(types, value)))
        return
    if isinstance(value, str):
        _check_string(doc, value, schema, path, out)
    elif isinstance(value, dict):
        _check_mapping(doc, value, schema, path, out)
    elif isinstance(value, list):
        _check_list(doc, value, schema, path, out)


def _check_string(doc: Document, value: str, schema: dict, path: tuple, out: list[Diagnostic]) -> None:
    if "minLength" in schema and len(value) < schema["minLength"]:
        out.append(Diagnostic(doc.at(path), f"{_name(doc.data, path)} must not be empty"))
    if "pattern" in schema and not compiled_pattern(schema["pattern"]).fullmatch(value):
        out.append(Diagnostic(doc.at(path), f"{_name(doc.data, path)} cannot be {value!r}",
                              _pattern_hint(schema["pattern"])))


def _check_mapping(doc: Document, value: dict, schema: dict, path: tuple, out: list[Diagnostic]) -> None:
    props = schema.get("properties", {})
    missing = [key for key in schema.get("required", []) if key not in value]
    meant = _misspelt(value, props, missing) if missing and schema.get("additionalProperties") is False else {}
    for key in missing:
        if key not in meant.values():  # a misspelt key's error says it (below)
            out.append(Diagnostic(doc.at(path), f"{_name(doc.data, path)} lacks required key '{key}'"))
    for key, item in value.items():
        if key in props:
            _check(doc, item, props[key], path + (key,), out)
        elif isinstance(schema.get("additionalProperties"), dict):
            _check(doc, item, schema["additionalProperties"], path + (key,), out)
        elif schema.get("additionalProperties") is False:
            out.append(_unknown_key(doc, path, key, props, meant.get(key)))


def _unknown_key(doc: Document, path: tuple, key: str, props: dict, meant: str | None) -> Diagnostic:
    """A key the schema does not know; when it is a misspelling of a required key that is missing, one
    error says both (the missing key follows from the misspelt one)."""
    place = "at the top level" if not path else f"in {_name(doc.data, path)}"
    if meant is not None:
        return Diagnostic(doc.key_at(path + (key,)), f"unknown key '{key}' {place}",
                          f"did you mean '{meant}'? ({_name(doc.data, path)} lacks required key '{meant}')",
                          code=MISSPELT_KEY)
    return Diagnostic(doc.key_at(path + (key,)), f"unknown key '{key}' {place}",
                      did_you_mean(key, props) or f"valid keys: {', '.join(props)}", code="unknown-key")


def _check_list(doc: Document, value: list, schema: dict, path: tuple, out: list[Diagnostic]) -> None:
    if len(value) < schema.get("minItems", 0):
        out.append(Diagnostic(doc.at(path),
                              f"{_name(doc.data, path)} must have at least {schema['minItems']} item(s)"))
    items = schema.get("items")
    if items:
        for i, item in enumerate(value):
            _check(doc, item, items, path + (i,), out)


MISSPELT_KEY = "misspelt-key"  # an unknown key that stands for a missing required one: an error that counts


def _misspelt(value: dict, props: dict, missing: list[str]) -> dict[str, str]:
    """Each unknown key of ``value`` whose closest valid key is a missing required one -> that key."""
    from .diagnostics import closest

    meant: dict[str, str] = {}
    for key in value:
        if key not in props and isinstance(key, str):
            match = closest(key, props)  # the key the plain unknown-key hint would name
            if match in missing and match not in meant.values():
                meant[key] = match
    return meant


_PATTERN_HINTS = {
    SLUG: "use lowercase letters, digits and single hyphens, like 'battle-resolution'",
    IDENT: "use lowercase letters, digits and underscores, starting with a letter, like 'being_discarded'",
    DECISION: "use dotted identifiers, like 'heal.may_target'",
    EDITION_ID: "use letters, digits, dots and hyphens, like '4.0.0-draft'",
    CLAUSE_REF: "cite a clause as TERM#CLAUSE, like 'heal#healable'",
    SAME_TERM_ID: "'formerly' names a clause of the same term by its id, like 'step-1'; one that came from "
                  "another term says moved_from: TERM#CLAUSE",
    LINEAGE_REF: "name a clause by its id in the same term, like 'step-1', or as TERM#CLAUSE, like 'heal#healable'",
    DATE: "write dates as YYYY-MM-DD, YYYY-MM or YYYY, quoted",
    DIGEST: "a SHA-256 digest, 64 lowercase hexadecimal digits, as 'rulebook publish' and 'rulebook correct' "
            "write it",
}


def _type_hint(types: list[str], value: Any) -> str | None:
    """How to write the value so that YAML reads it as the wanted type."""
    if "string" in types and isinstance(value, bool):
        return "put it in quotes; unquoted yes, no, true, false, on and off are read as true or false"
    if "string" in types and isinstance(value, (int, float)):
        return f'put it in quotes, "{value}", so that it is read as text'
    if "array" in types and isinstance(value, (str, int, float)) and not isinstance(value, bool):
        return f"write a list, like [{value}]"
    return None


def _pattern_hint(pattern: str) -> str | None:
    return _PATTERN_HINTS.get(pattern)


# Lists whose items a reader names: (what an item is, the key that names it)
_ITEMS = {
    "editions": ("edition", "id"), "facts": ("fact", "name"), "constraints": ("constraint", "id"),
    "decisions": ("decision", "name"), "sections": ("section", "key"), "clauses": ("clause", "id"),
    "rules": ("rule", None), "rows": ("row", None), "links": ("link", None), "keys": ("key", None),
    "aliases": ("alias", None), "values": ("value", None), "sources": ("source", None),
    "order": ("step", None), "exception_to": ("exception", None), "merged_from": ("merged clause", None),
    "patch": ("operation", None),
}


def _name(data: Any, path: tuple) -> str:
    """A place in a document as a reader names it: "rule 1 of clause 'not-in-battle'".

    Items are named by their id where they have a valid one, else numbered from 1;
    a clause's section is left out, since clause ids are unique in a term.
    """
    if not path:
        return "the file"
    parts: list[str] = []  # outermost first
    value = data
    i = 0
    while i < len(path):
        key = path[i]
        nxt = path[i + 1] if i + 1 < len(path) else None
        items = value.get(key) if isinstance(value, dict) else None
        if isinstance(nxt, int) and isinstance(items, list) and key in _ITEMS and nxt < len(items):
            noun, id_key = _ITEMS[key]
            item = items[nxt]
            label = item.get(id_key) if id_key and isinstance(item, dict) else None
            # the naming key itself is what is wrong: number the item instead
            if path[i + 2:] == (id_key,) or not isinstance(label, str) or not label:
                parts.append(f"{noun} {nxt + 1}")
            else:
                parts.append(f"{noun} '{label}'")
            value, i = item, i + 2
            continue
        parts.append(f"'{key}'" if isinstance(key, str) else f"item {key + 1}")
        value = value.get(key) if isinstance(value, dict) else None
        i += 1
    if any(p.startswith("clause ") for p in parts):
        parts = [p for p in parts if not p.startswith("section ")]
    return " of ".join(reversed(parts))
