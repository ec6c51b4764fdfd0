"""Heal as the REG entry of 10/10/2012 has it, written by hand from that text.

    rulebook conformance run --edition 2012 --engine examples.engines.heal2012:Heal2012

Written from rulebook/sources/001_286a30dd4942d17f.txt and the meanings of the
vocabulary's facts, not from the rulebook's YAML. Where the entry is silent the
engine refuses to answer (raises), as a careful engine would; that is also where
the edition's decisions are not asked. Each method quotes the sentence it follows.
"""

from __future__ import annotations

from typing import Mapping

Facts = Mapping[str, "bool | str"]


class Silent(LookupError):
    """The 2012 entry does not decide this question."""


class Heal2012:
    """An engine: ``decide(decision, facts)``."""

    def decide(self, decision: str, facts: Facts) -> bool | str:
        method = {
            "heal.may_target": self.may_target,
            "heal.may_play_enhancement": self.may_play_enhancement,
            "heal.may_activate_character_ability": self.may_activate_character_ability,
            "heal.healed_character_placed_in": self.placed_in,
        }.get(decision)
        if method is None:
            raise Silent(f"the 2012 Heal entry does not decide {decision!r}")
        return method(facts)

    @staticmethod
    def healable(f: Facts) -> bool:
        # "A character is healable if it is about to be discarded, was discarded
        # earlier in the same turn, is poisoned, or is diseased." (a card that is
        # not a character is not healable)
        if not f["target_is_character"]:
            return False
        return f["being_discarded"] or f["discarded_earlier_this_turn"] or f["poisoned"] or f["diseased"]

    def may_target(self, f: Facts) -> bool:
        # "Characters discarded from hands or decks cannot be targeted by heal cards."
        if f["discarded_from_hand_or_deck"]:
            return False
        # "Heal abilities target the characters that are to be healed."
        if not f["target_is_character"]:
            return False
        # "If no more specific requirement is specified targets must be healable."
        if f["card_specifies_target_requirement"]:
            return f["meets_card_requirement"]
        return self.healable(f)

    @staticmethod
    def may_play_enhancement(f: Facts) -> bool:
        phase = f["phase"]
        if phase == "battle":
            # "When played during the battle phase they must be played according to
            # the rules that govern when other enhancements can be played."
            return f["has_initiative"]
        if phase in ("preparation", "discard"):
            # "... must be played on a character of matching brigade in one of two ways:
            # (1) on a character in the holder's territory or (2) on a character in the
            # holder's discard pile (if the character was discarded in the same turn)."
            if not (f["brigade_matches"] and f["own_character"]):
                return False
            where = f["target_location"]
            return where == "territory" or (where == "discard_pile" and f["discarded_earlier_this_turn"])
        raise Silent(f"the 2012 entry does not say whether healing enhancements are played in the {phase} phase")

    @staticmethod
    def may_activate_character_ability(f: Facts) -> bool:
        # "The heal ability on a character can only be activated in battle."
        return f["in_battle"]

    @staticmethod
    def placed_in(f: Facts) -> str:
        # "A character healed from a discard ability is moved to its owner's territory."
        # "If a character is discarded and healed later that turn ..." (also from a discard)
        if f["being_discarded"] or f["discarded_earlier_this_turn"]:
            return "owner_territory"
        # "A character healed from the effect(s) paired with a poison (disease) ability
        # remains in the location it is in."
        if f["poisoned"] or f["diseased"]:
            return "location_unchanged"
        raise Silent("the 2012 entry says where a character goes only when healed from a discard, poison or disease")
