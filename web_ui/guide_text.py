"""The deck adaptation guide's text in French, English and Dutch: preparing a tactile, tagged deck."""

from __future__ import annotations

from companion.phrases import DEFAULT_LANGUAGE

GUIDE: dict[str, dict[str, object]] = {
    "fr": {
        "title": "Adapter un jeu de Chaud Devant ! : repères tactiles et étiquettes NFC",
        "intro": "Ce guide prépare un jeu que l'on reconnaît au toucher et que la marmite de Marmite lit. "
                 "Comptez une soirée pour les 77 cartes : 52 cartes Soupe et 25 cartes Menu (5 jeux de 5).",
        "material_title": "Matériel",
        "material": [
            "une perforatrice (un trou rond) ;",
            "des gommettes de couleur : jaune, marron, vert, rouge ;",
            "des gommettes en relief pour les points, et une gommette en forme de croix ;",
            "77 étiquettes NFC fines (NTAG213, NTAG215 ou MIFARE Classic 1K), rondes de 25 mm au plus ;",
            "un crayon pour cocher la liste à la fin de ce guide.",
        ],
        "soup_title": "Les 52 cartes Soupe",
        "soup": [
            "Perforation en haut à droite : elle indique le sens de la carte.",
            "Gommette de couleur en haut à gauche, selon la couleur de la soupe : "
            "Oignon → jaune ; Champignon → marron ; Pois → vert ; Piment → rouge.",
            "Gommettes de points en haut à gauche, sous la gommette de couleur, selon la valeur imprimée.",
            "Pas de gommette de points sur les cartes zéro (les bouillons).",
            "Une gommette en croix sur la carte zéro « La marmite déborde ».",
        ],
        "menu_title": "Les 25 cartes Menu",
        "menu": [
            "Gommette de couleur au centre de la carte, selon le même code : "
            "Oignon → jaune ; Champignon → marron ; Pois → vert ; Piment → rouge.",
            "Chaque joueur a son jeu de cinq menus : notez au dos, au crayon, le numéro de siège (1 à 5) "
            "de chaque jeu ; Marmite les enregistre siège par siège.",
        ],
        "nfc_title": "Où coller l'étiquette NFC",
        "nfc": [
            "Au dos de la carte, dans la moitié du bas, centrée : loin de la perforation (un trou sous "
            "l'antenne la coupe) et loin des gommettes du recto.",
            "Jamais sous une gommette en relief ni juste derrière elle : on ne doit ni couvrir ni aplatir "
            "les repères tactiles, et une étiquette pressée contre un relief finit par se fendre.",
            "Au même endroit sur toutes les cartes : le paquet reste plat et chaque carte passe à la même "
            "distance de l'antenne de la marmite (quelques centimètres au plus).",
            "Sur les cartes Menu, au dos, dans la moitié du bas, pas derrière la gommette centrale.",
            "Après collage, passez chaque carte au-dessus du lecteur : Marmite dit « Noté » ou son nom.",
        ],
        "enroll_title": "Dire à Marmite quelle étiquette est quelle carte",
        "enroll": [
            "Sur la tablette, page « Jeu de cartes », avec le code : « Enregistrer les cartes ». Marmite "
            "demande chaque carte dans l'ordre de la boîte (couleur par couleur, valeur par valeur, puis "
            "les menus siège par siège), à l'écran et à voix haute.",
            "Posez la carte demandée sur le lecteur. Une étiquette déjà utilisée est refusée, et Marmite "
            "dit pour quelle carte. On peut passer une carte, revenir en arrière, arrêter et reprendre.",
            "Avant de jouer, « Vérifier le jeu » : passez tout le paquet ; Marmite nomme les cartes "
            "manquantes, inconnues ou vues deux fois.",
        ],
        "checklist_title": "Liste carte par carte",
        "columns": ["Carte", "Perforation", "Couleur", "Points / croix", "Étiquette NFC", "Enregistrée"],
        "none": "aucun",
    },
    "en": {
        "title": "Adapting a Chaud Devant ! deck: tactile marks and NFC tags",
        "intro": "This guide prepares a deck you can tell by touch and that Marmite's pot can read. "
                 "Allow an evening for the 77 cards: 52 soup cards and 25 menu cards (5 sets of 5).",
        "material_title": "What you need",
        "material": [
            "a hole punch (one round hole);",
            "colour stickers: yellow, brown, green, red;",
            "raised dot stickers for the values, and one cross-shaped sticker;",
            "77 thin NFC stickers (NTAG213, NTAG215 or MIFARE Classic 1K), round, 25 mm at most;",
            "a pencil to tick the list at the end of this guide.",
        ],
        "soup_title": "The 52 soup cards",
        "soup": [
            "A punched hole at the top right: it tells which way up the card is.",
            "A colour sticker at the top left, by the soup's suit: "
            "Onion → yellow; Mushroom → brown; Pea → green; Pepper → red.",
            "Value stickers at the top left, under the colour sticker, matching the printed value.",
            "No value sticker on the zero cards (the stock cards).",
            "A cross sticker on the zero card “The pot overflows”.",
        ],
        "menu_title": "The 25 menu cards",
        "menu": [
            "A colour sticker in the centre of the card, by the same code: "
            "Onion → yellow; Mushroom → brown; Pea → green; Pepper → red.",
            "Each player has a set of five menus: write each set's seat number (1 to 5) on its back in "
            "pencil; Marmite enrolls them seat by seat.",
        ],
        "nfc_title": "Where the NFC sticker goes",
        "nfc": [
            "On the back of the card, in the lower half, centred: away from the punched hole (a hole under "
            "the antenna cuts it) and away from the stickers on the front.",
            "Never under a raised sticker nor right behind one: the tactile marks must not be covered or "
            "flattened, and a tag pressed against a bump ends up cracking.",
            "At the same place on every card: the deck stays flat and every card passes at the same "
            "distance from the pot's antenna (a few centimetres at most).",
            "On the menu cards, on the back, in the lower half, not behind the central sticker.",
            "Once stuck, pass each card over the reader: Marmite says “Noted” or its name.",
        ],
        "enroll_title": "Telling Marmite which tag is which card",
        "enroll": [
            "On the tablet, “Deck” page, with the PIN: “Enroll the cards”. Marmite asks for each card in "
            "box order (suit by suit, value by value, then the menus seat by seat), on screen and aloud.",
            "Put the card asked for on the reader. A tag already in use is refused, and Marmite says for "
            "which card. You can skip a card, go back, stop and resume.",
            "Before playing, “Check the deck”: pass the whole deck; Marmite names the cards missing, "
            "unknown or seen twice.",
        ],
        "checklist_title": "Card by card checklist",
        "columns": ["Card", "Hole", "Colour", "Dots / cross", "NFC sticker", "Enrolled"],
        "none": "none",
    },
    "nl": {
        "title": "Een spel Chaud Devant ! aanpassen: voelbare tekens en NFC-tags",
        "intro": "Deze handleiding maakt een spel dat je op de tast herkent en dat de pot van Marmite kan "
                 "lezen. Reken op een avond voor de 77 kaarten: 52 soepkaarten en 25 menukaarten (5 sets van 5).",
        "material_title": "Benodigdheden",
        "material": [
            "een perforator (één rond gaatje);",
            "gekleurde stickers: geel, bruin, groen, rood;",
            "voelbare stipstickers voor de waarden, en één kruisvormige sticker;",
            "77 dunne NFC-stickers (NTAG213, NTAG215 of MIFARE Classic 1K), rond, hoogstens 25 mm;",
            "een potlood om de lijst achteraan deze handleiding af te vinken.",
        ],
        "soup_title": "De 52 soepkaarten",
        "soup": [
            "Een gaatje rechtsboven: zo weet je hoe de kaart rechtop zit.",
            "Een kleursticker linksboven, volgens de soort soep: "
            "Ui → geel; Champignons → bruin; Erwten → groen; Peper → rood.",
            "Waardestickers linksboven, onder de kleursticker, volgens de gedrukte waarde.",
            "Geen waardesticker op de nulkaarten (de bouillons).",
            "Een kruissticker op de nulkaart ‘De pot kookt over’.",
        ],
        "menu_title": "De 25 menukaarten",
        "menu": [
            "Een kleursticker in het midden van de kaart, volgens dezelfde code: "
            "Ui → geel; Champignons → bruin; Erwten → groen; Peper → rood.",
            "Elke speler heeft een set van vijf menu's: schrijf met potlood het plaatsnummer (1 tot 5) op "
            "de achterkant van elke set; Marmite leest ze plaats per plaats in.",
        ],
        "nfc_title": "Waar de NFC-sticker komt",
        "nfc": [
            "Op de achterkant van de kaart, in de onderste helft, in het midden: weg van het gaatje (een gat "
            "onder de antenne onderbreekt ze) en weg van de stickers op de voorkant.",
            "Nooit onder een voelbare sticker of er vlak achter: de voelbare tekens mogen niet bedekt of "
            "platgedrukt worden, en een tag die tegen een bobbel drukt, barst uiteindelijk.",
            "Op alle kaarten op dezelfde plek: het spel blijft plat en elke kaart komt op dezelfde afstand "
            "van de antenne van de pot (hoogstens enkele centimeters).",
            "Op de menukaarten op de achterkant, in de onderste helft, niet achter de middelste sticker.",
            "Haal na het plakken elke kaart over de lezer: Marmite zegt ‘Genoteerd’ of de naam.",
        ],
        "enroll_title": "Marmite vertellen welke tag welke kaart is",
        "enroll": [
            "Op de tablet, pagina ‘Kaartspel’, met de pincode: ‘Kaarten inlezen’. Marmite vraagt elke kaart "
            "in de volgorde van de doos (kleur per kleur, waarde per waarde, daarna de menu's plaats per "
            "plaats), op het scherm en hardop.",
            "Leg de gevraagde kaart op de lezer. Een tag die al gebruikt is, wordt geweigerd, en Marmite "
            "zegt voor welke kaart. Je kunt een kaart overslaan, teruggaan, stoppen en later hervatten.",
            "Voor het spelen: ‘Het spel controleren’: haal het hele spel over de lezer; Marmite noemt de "
            "kaarten die ontbreken, onbekend zijn of twee keer gezien werden.",
        ],
        "checklist_title": "Lijst kaart per kaart",
        "columns": ["Kaart", "Gaatje", "Kleur", "Stippen / kruis", "NFC-sticker", "Ingelezen"],
        "none": "geen",
    },
}

COLOURS: dict[str, dict[str, str]] = {
    "fr": {"onion": "jaune", "mushroom": "marron", "pea": "vert", "pepper": "rouge", "none": "aucune"},
    "en": {"onion": "yellow", "mushroom": "brown", "pea": "green", "pepper": "red", "none": "none"},
    "nl": {"onion": "geel", "mushroom": "bruin", "pea": "groen", "pepper": "rood", "none": "geen"},
}
CROSS: dict[str, str] = {"fr": "croix", "en": "cross", "nl": "kruis"}


def guide(language: str) -> dict[str, object]:
    return GUIDE.get(language, GUIDE[DEFAULT_LANGUAGE])
