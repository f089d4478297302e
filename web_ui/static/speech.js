// Speech on this device: short utterances, what it speaks (all / mine / silent) and how fast, remembered here.
"use strict";
window.MarmiteSpeech = (function () {
  const MAX_WORDS = 12;
  // Parts every player wants to hear, and parts a phone speaks only when they name its player.
  // (Chaud Devant's parts, then Sus au buffet !'s.)
  const ALWAYS = ["trick_won", "round_scored", "unclaimed", "game_over", "game_started", "round_opened",
    "menus_revealed", "round_ended", "winner", "tie_break", "part_two"];
  const IF_NAMED = ["turn", "play_begins", "last_card", "revoke", "refused", "undone", "where_turn",
    "where_reveal", "menu_revealed", "moved", "duel_won", "duel_lost", "duel_tied", "swap", "rear_tied",
    "undone_card", "undone_plate"];

  function pref(key, fallback) {
    try {
      const value = window.localStorage.getItem("marmite." + key);
      return value === null ? fallback : value;
    } catch (e) { return fallback; }
  }

  function setPref(key, value) {
    try { window.localStorage.setItem("marmite." + key, String(value)); } catch (e) { /* private mode */ }
  }

  function words(text) { return text.split(/\s+/).filter(Boolean).length; }

  // A long announcement as short utterances: sentences (and "; " lists), joined while they stay short.
  function chunks(text) {
    const pieces = String(text || "").split(/(?<=[.;!?])\s+/).filter(Boolean);
    const out = [];
    let current = "";
    pieces.forEach(function (piece) {
      const joined = current ? current + " " + piece : piece;
      if (current && words(joined) > MAX_WORDS) { out.push(current); current = piece; } else { current = joined; }
    });
    if (current) out.push(current);
    return out;
  }

  function escapeRegExp(text) { return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"); }

  function names(text, name) {
    return new RegExp("(^|[^\\p{L}])" + escapeRegExp(name) + "($|[^\\p{L}])", "u").test(text);
  }

  // What of a message concerns one player: their turn, their refusals, trick and round results.
  function concerning(data, name) {
    if (!name) return data.text;
    return (data.parts || []).filter(function (part) {
      return ALWAYS.indexOf(part.key) >= 0 || (IF_NAMED.indexOf(part.key) >= 0 && names(part.text, name));
    }).map(function (part) { return part.text; }).join(" ");
  }

  return { chunks: chunks, concerning: concerning, pref: pref, setPref: setPref };
})();
