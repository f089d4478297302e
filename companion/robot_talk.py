"""The parts the table announces for robot seats: a robot's choice, its hand, and the refusals robots add."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from companion.robot_seats import (
    NOT_ROBOT_CARD,
    ROBOT_CHOOSES_MENU,
    ROBOT_NOT_READY,
    RobotChose,
    RobotHandKnown,
    RobotLedger,
    RobotSetup,
    face_down,
    turn_of,
)
from companion.seam import FaceDownStep, Part, PracticeTalk, State, table_seats


def why_part(event: dict[str, Any]) -> Part | None:
    """The learning aid a `robot` choice carries (`why`: a part of the game's voice), if any."""
    why = event.get("why")
    if isinstance(why, dict) and isinstance(why.get("key"), str) and isinstance(why.get("fields", {}), dict):
        return Part(why["key"], dict(why.get("fields", {})))
    return None


def describe_robot(effects: list[Any], setup: RobotSetup, event: dict[str, Any]) -> list[Part]:
    """"Marmiton joue Pois 5 : posez-la dans la marmite", "Marmiton a choisi sa carte, face cachée"…
    At a practice table a robot's choice says nothing: its card's own line names it (`practice_card`),
    and so do a robot's face-down card and the hands the table deals without cards."""
    parts: list[Part] = []
    virtual = bool(setup.practice)
    for effect in effects:
        if isinstance(effect, RobotChose):
            if effect.face_down:
                if not (setup.practice == "virtual" and effect.player in setup.seats):
                    parts.append(Part("robot.chose_face_down", {"player": effect.player}))
            elif virtual:
                continue
            else:
                key = "robot.plays_virtual" if virtual else "robot.plays"
                parts.append(Part(key, {"player": effect.player, "card": effect.card}))
                why = why_part(event)
                if why is not None and setup.aids:
                    parts.append(Part("robot.why", {"why": why}))
        elif isinstance(effect, RobotHandKnown):
            if effect.swapped == 0:
                parts.append(Part("robot.keeps", {"player": effect.player}))
            elif effect.swapped is not None and virtual:
                parts.append(Part("robot.swapped", {"player": effect.player, "count": effect.swapped}))
            elif effect.swapped is not None:  # at a real table: the discards are not public, so the count
                # only is said; which cards leave its tray is shown on the host's (PIN) robots page
                parts.append(Part("robot.swapped_tray", {"player": effect.player, "count": effect.swapped}))
            elif setup.practice != "virtual":
                parts.append(Part("robot.hand_known", {"player": effect.player, "size": effect.size}))
    return parts


def practice_talk(kind: object) -> PracticeTalk:
    """The parts of `kind`'s voice a practice table spares (none for no game, or one without robot seats)."""
    seats = table_seats(kind)
    return seats.practice_talk if seats is not None else PracticeTalk()


def practice_turns(parts: tuple[Part, ...], ledger: RobotLedger, talk: PracticeTalk) -> tuple[Part, ...]:
    """At a practice table a robot's turn is said without what binds it ("À Cléo.", not "À Cléo, couleur
    demandée Pois."): the robot needs no reminder, and the person hears the suit when it is their turn; a
    robot that has just won the trick is not told it leads ("Cléo gagne le pli avec 13.", not "… À Cléo.");
    a robot's call to exchange is not said (its own line says "Bip échange 2 cartes." right after), nor that
    it has chosen its menu (it does so at once; "Menus : …" follows); and a table without cards does not say
    the hands it deals ("Main de Bop enregistrée, 13 cartes." four times a round told nobody anything). The
    game names those parts (`talk`)."""
    if not ledger.setup.practice:
        return parts
    said: list[Part] = []
    for part in parts:
        robot = ledger.is_robot(str(part.fields.get("player", "")))
        if part.key in talk.own_choice and robot:  # e.g. a robot chooses its menu at once: the reveal says it
            continue
        if ledger.setup.practice == "virtual" and part.key in talk.dealt:
            continue
        if part.key == "turn" and robot and said and said[-1].key in talk.won \
                and said[-1].fields.get("player") == part.fields.get("player"):
            continue
        if part.key == "turn" and robot and part.fields.get("bound") is not None:
            part = Part(part.key, {**part.fields, "bound": None})
        said.append(part)
    return tuple(said)


def practice_card(player: str, why: Part | None, face_down: bool) -> Callable[[tuple[Part, ...]], tuple[Part, ...]]:
    """A practice robot's card in one line, its reason joined to the game's own words for the card:
    "Marmiton : Pois 4 — 9, pour esquiver. À Ana, couleur demandée Pois." (a buffet card's
    words already name the mouse: "Bip : cinq — case 5, en tête, pour passer devant la dernière souris.")."""

    def words(parts: tuple[Part, ...]) -> tuple[Part, ...]:
        if not parts:
            return parts
        first, rest = parts[0], parts[1:]
        if face_down:
            return parts if why is None else (Part("robot.played_named", {"play": first, "why": why}), *rest)
        if why is None:
            return (Part("robot.played_plain", {"player": player, "play": first}), *rest)
        return (Part("robot.played", {"player": player, "play": first, "why": why}), *rest)

    return words


def describe_robot_refusal(event: dict[str, Any], reason: str, ledger: RobotLedger, state: State,
                           actions: int) -> Part:
    """"Ce n'est pas la carte de Marmiton : on attend Pois 5." and the other robot refusals."""
    if reason in (NOT_ROBOT_CARD, ROBOT_NOT_READY):
        player = turn_of(state) or ""
        choice = ledger.pending(player, actions)
        fields: dict[str, Any] = {"player": player}
        if reason == NOT_ROBOT_CARD and choice is not None:
            fields["card"] = choice.card
        return Part(f"robot.{reason}", fields)
    if reason == ROBOT_CHOOSES_MENU:
        return Part("robot.robot_chooses_menu", {"player": str(event.get("player", ""))})
    if event.get("type") == "robot" and reason in ("not_a_robot", "robot_not_due"):
        return Part(f"robot.{reason}", {"player": str(event.get("player", ""))})
    return state.describe_refusal(event, reason)


def robot_ask(state: State, ledger: RobotLedger, actions: int) -> Part | None:
    """The card a robot seat whose turn it is has chosen (its ask, said again), None if there is none."""
    player = turn_of(state)
    waiting = still_choosing(state, ledger, actions)
    if waiting:
        return Part("robot.still_choosing", {"players": ", ".join(waiting)})
    if player is None or not ledger.is_robot(player):
        return None
    choice = ledger.pending(player, actions)
    if choice is None:
        return None
    virtual = bool(ledger.setup.practice)
    if face_down(state):
        return Part("robot.plays_mouse_virtual" if virtual else "robot.plays_mouse",
                    {"player": player, "card": choice.card})
    return Part("robot.plays_virtual" if virtual else "robot.plays", {"player": player, "card": choice.card})


def still_choosing(state: State, ledger: RobotLedger, actions: int) -> list[str]:
    """At a practice without cards of a face-down game, the players still to choose their card of the step,
    in order (the table turns none over until all have): "où en est-on" names them."""
    if ledger.setup.practice != "virtual" or not isinstance(state, FaceDownStep):
        return []
    step = state.face_down_step()
    if step is None:
        return []
    return [player for player in step.still_to_show() if ledger.pending(player, actions) is None]
