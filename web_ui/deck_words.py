"""The deck page's words in French, English and Dutch (kept apart from the other pages' catalogues)."""

from __future__ import annotations

from companion.phrases import DEFAULT_LANGUAGE

WORDS: dict[str, dict[str, str]] = {
    "fr": {
        "title": "Jeu de cartes", "link": "Jeu de cartes (étiquettes NFC)", "decks": "Mes jeux",
        "active": "actif", "cards": "étiquettes", "checked": "vérifié le", "never_checked": "jamais vérifié",
        "use": "Utiliser", "new_deck": "Nouveau jeu", "deck_name": "Nom du nouveau jeu", "create": "Créer",
        "file": "Fichier de jeu", "import_label": "Importer un fichier de jeu (uid,card)", "import": "Importer",
        "export": "Exporter le jeu actif", "enroll": "Enregistrer les cartes",
        "enroll_help": "Posez chaque carte demandée sur le lecteur, dans l'ordre de la boîte : "
                       "couleur par couleur, valeur par valeur, puis les cartes menu, siège par siège.",
        "start": "Commencer ou reprendre", "again": "Tout recommencer", "skip": "Passer cette carte",
        "back": "Carte précédente", "stop": "Arrêter (reprendre plus tard)", "redo": "Refaire cette carte",
        "redo_label": "Remplacer une carte perdue ou abîmée", "now": "Carte demandée",
        "progress": "Progression", "missing": "Cartes sans étiquette", "check": "Vérifier le jeu",
        "check_help": "Passez tout le paquet au-dessus du lecteur, puis appuyez sur « Terminer ».",
        "check_start": "Commencer la vérification", "check_finish": "Terminer",
        "not_seen": "Pas vues", "unknown": "Étiquettes inconnues", "doubled": "Vues deux fois",
        "deal": "Distribuer avec le lecteur", "deal_help": "Le donneur passe chaque carte au-dessus du lecteur "
        "en distribuant, une à la fois, dans le sens des aiguilles d'une montre à partir du premier joueur.",
        "deal_start": "Commencer la distribution", "deal_undo": "Annuler la dernière carte",
        "deal_cancel": "Abandonner la distribution",
        "every_round": "À chaque manche de cette partie (mains connues)", "next": "Prochaine carte pour",
        "guide": "Guide d'adaptation du jeu (à imprimer)", "unlock": "Déverrouillez avec le code pour agir ici.",
        "edition": "Édition des cartes",
        "edition_2005": "2005 (Chaud Devant !)", "edition_2023": "2023 (Foodie Forest)",
        "self_describing": "Étiquettes auto-descriptives",
        "offers": "Cartes qui se présentent d'elles-mêmes", "add": "Ajouter au jeu",
        "hand_title": "Ma main", "read_hand": "Lire ma main à voix haute",
    },
    "en": {
        "title": "Deck", "link": "Deck (NFC tags)", "decks": "My decks",
        "active": "active", "cards": "tags", "checked": "checked on", "never_checked": "never checked",
        "use": "Use", "new_deck": "New deck", "deck_name": "Name of the new deck", "create": "Create",
        "file": "Deck file", "import_label": "Import a deck file (uid,card)", "import": "Import",
        "export": "Export the active deck", "enroll": "Enroll the cards",
        "enroll_help": "Put each card asked for on the reader, in box order: suit by suit, value by value, "
                       "then the menu cards, seat by seat.",
        "start": "Start or resume", "again": "Start over", "skip": "Skip this card",
        "back": "Previous card", "stop": "Stop (resume later)", "redo": "Redo this card",
        "redo_label": "Replace a lost or damaged card", "now": "Card asked for",
        "progress": "Progress", "missing": "Cards without a tag", "check": "Check the deck",
        "check_help": "Pass the whole deck over the reader, then press “Finish”.",
        "check_start": "Start the check", "check_finish": "Finish",
        "not_seen": "Not seen", "unknown": "Unknown tags", "doubled": "Seen twice",
        "deal": "Deal with the reader", "deal_help": "The dealer passes each card over the reader while dealing, "
        "one at a time, clockwise from the first player.",
        "deal_start": "Start the deal", "deal_undo": "Undo the last card",
        "deal_cancel": "Abandon the deal",
        "every_round": "Every round of this game (known hands)", "next": "Next card to",
        "guide": "Deck adaptation guide (printable)", "unlock": "Unlock with the PIN to act here.",
        "edition": "Edition of the cards",
        "edition_2005": "2005 (Chaud Devant !)", "edition_2023": "2023 (Foodie Forest)",
        "self_describing": "Self-describing tags",
        "offers": "Cards that name themselves", "add": "Add to the deck",
        "hand_title": "My hand", "read_hand": "Read my hand aloud",
    },
    "nl": {
        "title": "Kaartspel", "link": "Kaartspel (NFC-tags)", "decks": "Mijn spellen",
        "active": "actief", "cards": "tags", "checked": "gecontroleerd op", "never_checked": "nooit gecontroleerd",
        "use": "Gebruiken", "new_deck": "Nieuw spel", "deck_name": "Naam van het nieuwe spel", "create": "Maken",
        "file": "Spelbestand", "import_label": "Een spelbestand importeren (uid,card)", "import": "Importeren",
        "export": "Het actieve spel exporteren", "enroll": "Kaarten inlezen",
        "enroll_help": "Leg elke gevraagde kaart op de lezer, in de volgorde van de doos: kleur per kleur, "
                       "waarde per waarde, daarna de menukaarten, plaats per plaats.",
        "start": "Beginnen of hervatten", "again": "Opnieuw beginnen", "skip": "Deze kaart overslaan",
        "back": "Vorige kaart", "stop": "Stoppen (later hervatten)", "redo": "Deze kaart opnieuw",
        "redo_label": "Een verloren of beschadigde kaart vervangen", "now": "Gevraagde kaart",
        "progress": "Voortgang", "missing": "Kaarten zonder tag", "check": "Het spel controleren",
        "check_help": "Haal het hele spel over de lezer en druk dan op ‘Klaar’.",
        "check_start": "Controle beginnen", "check_finish": "Klaar",
        "not_seen": "Niet gezien", "unknown": "Onbekende tags", "doubled": "Twee keer gezien",
        "deal": "Delen met de lezer", "deal_help": "De gever haalt elke kaart over de lezer tijdens het delen, "
        "één voor één, met de klok mee vanaf de eerste speler.",
        "deal_start": "Delen beginnen", "deal_undo": "Laatste kaart terugdraaien",
        "deal_cancel": "Delen afbreken",
        "every_round": "Elke ronde van dit spel (gekende handen)", "next": "Volgende kaart voor",
        "guide": "Handleiding om het spel aan te passen (om af te drukken)",
        "unlock": "Ontgrendel met de pincode om hier iets te doen.",
        "edition": "Editie van de kaarten",
        "edition_2005": "2005 (Chaud Devant !)", "edition_2023": "2023 (Foodie Forest)",
        "self_describing": "Zelfbeschrijvende tags",
        "offers": "Kaarten die zichzelf voorstellen", "add": "Toevoegen aan het spel",
        "hand_title": "Mijn hand", "read_hand": "Mijn hand voorlezen",
    },
}


def words(language: str) -> dict[str, str]:
    """The deck page's words in `language` (French when unknown)."""
    return WORDS.get(language, WORDS[DEFAULT_LANGUAGE])
