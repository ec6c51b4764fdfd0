#!/usr/bin/env node
// Heal as the REG entry of 10/10/2012 has it, written by hand from that text
// (rulebook/sources/001_286a30dd4942d17f.txt), speaking the JSON-lines protocol
// of docs/conformance.md:
//
//   rulebook conformance run --edition 2012 --engine-cmd "node examples/engines/heal2012.js"
//
// One request per line on stdin: {"id", "edition", "decision", "facts"}.
// One answer per line on stdout: {"id", "answer"} or {"id", "error"}.
// Where the entry is silent it answers with an error, as a careful engine would.
"use strict";

const readline = require("readline");

class Silent extends Error {}

// "A character is healable if it is about to be discarded, was discarded earlier
// in the same turn, is poisoned, or is diseased." (a card that is not a character
// is not healable)
function healable(f) {
  if (!f.target_is_character) return false;
  return f.being_discarded || f.discarded_earlier_this_turn || f.poisoned || f.diseased;
}

const decisions = {
  "heal.may_target"(f) {
    // "Characters discarded from hands or decks cannot be targeted by heal cards."
    if (f.discarded_from_hand_or_deck) return false;
    // "Heal abilities target the characters that are to be healed."
    if (!f.target_is_character) return false;
    // "If no more specific requirement is specified targets must be healable."
    return f.card_specifies_target_requirement ? f.meets_card_requirement : healable(f);
  },
  "heal.may_play_enhancement"(f) {
    switch (f.phase) {
      case "battle":
        // "... according to the rules that govern when other enhancements can be played."
        return f.has_initiative;
      case "preparation":
      case "discard":
        // "... on a character of matching brigade ... (1) on a character in the holder's
        // territory or (2) on a character in the holder's discard pile (if the character
        // was discarded in the same turn)."
        if (!f.brigade_matches || !f.own_character) return false;
        return f.target_location === "territory" ||
          (f.target_location === "discard_pile" && f.discarded_earlier_this_turn);
      default:
        throw new Silent(`the 2012 entry does not cover the ${f.phase} phase`);
    }
  },
  "heal.may_activate_character_ability"(f) {
    // "The heal ability on a character can only be activated in battle."
    return f.in_battle;
  },
  "heal.healed_character_placed_in"(f) {
    // "A character healed from a discard ability is moved to its owner's territory."
    if (f.being_discarded || f.discarded_earlier_this_turn) return "owner_territory";
    // "... healed from the effect(s) paired with a poison (disease) ability remains in
    // the location it is in."
    if (f.poisoned || f.diseased) return "location_unchanged";
    throw new Silent("the 2012 entry does not say where this character goes");
  },
};

function required(facts) {
  // A missing fact is an error, not a silent false.
  return new Proxy(facts, {
    get(target, name) {
      if (typeof name === "string" && !(name in target)) throw new Error(`missing fact ${name}`);
      return target[name];
    },
  });
}

const lines = readline.createInterface({ input: process.stdin, terminal: false });
lines.on("line", (line) => {
  let request;
  try {
    request = JSON.parse(line);
  } catch (e) {
    process.stdout.write(JSON.stringify({ error: "request is not JSON" }) + "\n");
    return;
  }
  const reply = { id: request.id };
  try {
    const decide = decisions[request.decision];
    if (!decide) throw new Silent(`the 2012 Heal entry does not decide ${request.decision}`);
    reply.answer = decide(required(request.facts || {}));
  } catch (e) {
    reply.error = e.message;
  }
  process.stdout.write(JSON.stringify(reply) + "\n");
});
