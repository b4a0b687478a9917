"""The score calculator, its match mode and the audience screen in words: every label,
prompt and message the pages show or say, for the build to write into the pages (the
scripts read them from there, never from their own source).

A phrase with a value in it is a template: ``{n}``, ``{name}``, ``{message}`` are filled
in by the page. A phrase that depends on a count has a ``one`` and an ``other`` form.
"""

from __future__ import annotations

from typing import Any

from ..model import Count, Edition, Position
from .readings import OUR_READING
from .scoring import label
from .sheet import COLOURS as COLOURS  # the pages use these too
from .sheet import DEFAULT_COLOURS as DEFAULT_COLOURS
from .sheet import DETAIL_LABELS as DETAIL_LABELS
from .sheet import FINAL_SCORE

ATHLETES = ("A", "B")

# The referee's spoken commands (2.4), as the clock's buttons say them.
COMMANDS = {"start": ("Combate", "Start"), "stop": ("Parou", "Stop")}

PAGE = {
    "title": "Score calculator",
    "description": (
        "Record a match and get the score, penalties and result, each step citing its rule."
    ),
    "intro": (
        "Set the division, then record what happens on the mat, with each athlete's "
        "buttons. Every line of the log says what the rules give and cites the clause; "
        "tap a line to correct it. The link at the bottom reproduces the match. For a "
        "live match, open the match mode: the clock, the 20-second counts and the "
        "buttons fill the screen."
    ),
    "setup": "Names, colours and clock",
    "name": "Name of athlete {athlete} (optional)",
    "colour": "Colour of athlete {athlete}",
    "length": "Match length",
    "minutes": "Minutes",
    "seconds": "Seconds",
    "length_help": (
        "The rules set no match length: enter the one of your event. Without one the "
        "clock counts up and time is recorded by hand."
    ),
    "log": "Match log",
    "share": "Link to this match:",
    "reset": "New match",
    "shortcuts": "Keyboard shortcuts",
    "board_link": "Audience screen",
    "sheet_link": "Match sheet",
    # The match link's share button (docs/assets/app/share.js reads them from the button).
    "share_label": "Share this match",
    "copy_label": "Copy the link to this match",
    "copied": "Link copied",
    "share_failed": "Could not share or copy the link",
    "share_unavailable": "Copying needs a secure (https) address: show the link",
}

# Labels and messages of the page's script, by key.
UI: dict[str, Any] = {
    "our_reading": OUR_READING,  # before the notes a log line or result follows
    "athlete": "Athlete {athlete}",
    "points": "Points",
    "advantages": "Advantages",
    "penalties": "Penalties",
    "disqualified": {
        "match": "Disqualified from the match",
        "competition": "Disqualified from the competition",
    },
    "no_events": "No events yet.",
    "no_score": "–",
    "waiting_engine": "Waiting for the rules engine: scored once it is ready.",
    "calls_waiting": {
        "one": "1 call is waiting for the rules engine; it is scored once the engine is ready.",
        "other": "{n} calls are waiting for the rules engine; they are scored in order once "
        "the engine is ready.",
    },
    "call_waiting": "{call}: waiting for the rules engine.",
    "field_needed": "{field}: needed for this division.",
    "match_mode_refused": "Match mode needs a valid division first. {message}",
    "set_time": "Set the time",
    "set_time_label": "Time on the clock (minutes:seconds)",
    "set_time_problem": "Write the time as minutes:seconds, for example 4:30.",
    "set": "Set",
    "sound": "Sound and vibration at 0:00",
    "injury_running": "Injury time-out: {time}",
    "injury_end": "End the injury time-out of {name}",
    "board_match": "{a} – {b}",
    "board_choose": "Match shown",
    "last": "Last: {effect}",
    "match_mode": "Match mode",
    "leave_match_mode": "Leave match mode",
    "fullscreen": "Full screen",
    "leave_fullscreen": "Leave full screen",
    "undo": "Undo",
    "redo": "Redo",
    "show_log": "Log",
    "hide_log": "Back to the match",
    "more": "More",
    "close": "Close",
    "cancel": "Cancel",
    "record": "Record",
    "start": "{word} ({english})".format(word=COMMANDS["start"][0], english=COMMANDS["start"][1]),
    "stop": "{word} ({english})".format(word=COMMANDS["stop"][0], english=COMMANDS["stop"][1]),
    "set_length": "Set",
    "clock": "Match clock",
    "clock_running": "running",
    "clock_stopped": "stopped",
    "time_expired": "Time has expired: record any advantage still due, then the end.",
    "clock_resumed": "Time resumed after {away} away: check the clock.",
    "clock_went_back": (
        "The device's clock went back while the match was away, so no time away was "
        "counted: check the clock."
    ),
    "not_kept_full": (
        "This browser's storage is full: this match is not kept here. Scoring goes on; "
        "keep its link or its match sheet as the record."
    ),
    "not_kept_blocked": (
        "This browser does not let the page keep data: this match is not kept here. "
        "Scoring goes on; keep its link or its match sheet as the record."
    ),
    "not_kept_link": "Link to this match",
    "read_only": (
        "This match is being recorded in another tab or window of this browser: here it "
        "is read-only, so that the two never overwrite each other."
    ),
    "take_over": "Record it here instead",
    # A match in progress kept in this browser, offered wherever the calculator opens
    # without one (Home's "Open match mode" included), and the question before "New match"
    # leaves one that is not finished.
    "resume_title": "Matches in progress",
    "resume_offer": "A match is in progress in this browser:",
    "resume_match": "Resume {a} v {b} ({events})",
    "resume_events": {"one": "1 event", "other": "{n} events"},
    "new_match_ask": (
        "This match is not finished. Start a new match? This one stays kept in this "
        "browser; Back returns to it."
    ),
    "new_match_yes": "Start a new match",
    "away_minutes": "{n} min",
    "away_seconds": "{n} s",
    "counts": "20-second counts",
    "count_running": "{name}: {seconds} s",
    "count_cancel": "Stop the count: {name}",
    "count_record": "Record it",
    "count_dismiss": "Dismiss",
    "counts_away": "Not offered in this uniform: {names}.",
    "correct": "Correct event {n}",
    "correct_title": "Event {n}",
    "give_to": "Give it to {name}",
    "delete": "Delete this event",
    "illegal": "Not legal for this division",
    "legal": "Legal for this division",
    "usual": "{position}, the usual",
    "share_match": {"one": "this match (1 event)", "other": "this match ({n} events)"},
    "share_division": "this division",
    "loaded": {
        "one": "Match loaded from the link: 1 event.",
        "other": "Match loaded from the link: {n} events.",
    },
    "undone": "Undone.",
    "redone": "Redone.",
    "new_match": "New match.",
    "division_changed": "Division changed.",
    "deleted_event": "Event deleted.",
    "corrected_event": "Event corrected.",
    "count_points": {"one": "1 point", "other": "{n} points"},
    "count_advantages": {"one": "1 advantage", "other": "{n} advantages"},
    "count_penalties": {"one": "1 penalty", "other": "{n} penalties"},
    "tally": "{name}: {points}, {advantages}, {penalties}.",
    "not_list": ("The events in this link are not a list; they are kept in the link as they are."),
    "not_json": (
        "The events in this link could not be read ({reason}); they are kept in the link as "
        "they are."
    ),
    "not_scored": "Not scored: {message}",
    "not_scored_events": {
        "one": "1 event is not scored; it is marked in the log. Correct it or delete it.",
        "other": "{n} events are not scored; they are marked in the log. Correct or delete them.",
    },
    "waiting_division": "Not scored until the division is valid.",
    # An event the log names in words (call-words.js), for one athlete: "Ana: Takedown (2)".
    "call_of": "{name}: {call}",
    "unknown_value": "{value} (not a known value)",
    "division_error": (
        "{message} The events recorded are kept; they are scored once the division is valid."
    ),
    # A link's events beyond the limits of lvl_rules.faces.limits, checked in the page
    # before the engine sees them (link-limits.js): each names the limit.
    "link_too_long": (
        "The events in this link are {length} characters long, more than the {limit} a "
        "link may hold; they are kept in the link as they are."
    ),
    "link_too_long_packed": (
        "The events in this link are longer than the {limit} characters a link may hold, so "
        "they were not unpacked; they are kept in the link as they are."
    ),
    "link_number_too_long": (
        "A number in the events of this link has {digits} digits, more than the {limit} a "
        "number may have; the events are kept in the link as they are."
    ),
    "too_deep": (
        "Not scored: it is nested more than {limit} levels deep, deeper than any event can "
        "be, so it was not sent to the rules engine."
    ),
    "number_too_long": (
        "Not scored: a number in it has {digits} digits, more than the {limit} a number "
        "may have, so it was not sent to the rules engine."
    ),
    "number_too_large": (
        "Not scored: a number in it ({value}) is too large, so it was not sent to the rules engine."
    ),
    "text_too_long": (
        "Not scored: a text in it is {length} characters long, more than the {limit} a "
        "field may hold, so it was not sent to the rules engine."
    ),
    "too_many_events": "Not scored: a match holds at most {limit} events.",
    "engine_failed": "The rules engine could not score the match ({message}). The events are kept.",
    "wake_lock": "The screen stays on during the match.",
    "shortcut_b": "Shift + {key}",
    "key_space": "Space",
    "shortcut_clock": "Start or stop the clock",
    "shortcut_undo": "Undo",
    "shortcut_redo": "Redo",
    "shortcut_keys": "Show these shortcuts",
    "shortcuts_intro": (
        "Athlete A: the key alone. Athlete B: Shift and the key. Shortcuts work when no "
        "field has the focus."
    ),
    "board_waiting": (
        "Waiting for the match. Open the calculator's match mode in another tab or "
        "window of this browser."
    ),
    "board_title": "Audience screen",
    "board_time": "Time",
}

SHEET_PAGE = {
    "title": "Match sheet",
    "description": (
        "The record of a match: edition, division, every call with its time and rule, the "
        "result and the match's fingerprint."
    ),
}
# The match sheet's words, by key (sheet.js fills them in).
SHEET = {
    "edition": "{title} ({status})",
    "our_reading": OUR_READING,  # before the notes an event's lines or the result follow
    "in_force": "the edition in force",
    "not_in_force": "not the edition in force",
    "division": "Division: {division}",
    "athletes": "{a} (athlete A, {colour_a}) against {b} (athlete B, {colour_b})",
    "number": "#",
    "time": "Time",
    "event": "What happened",
    "clause": "Rule",
    "no_time": "–",
    "result": "Result",
    "fingerprint": "Fingerprint (SHA-256 of the match, form {form})",
    "check": (
        "Anyone can check this sheet: open the replay link, or run lvl-rules sheet with "
        "the same division and events; the same match always gives this fingerprint, and "
        "any change to one event gives another."
    ),
    "replay": "Replay this match in the calculator:",
    "replay_link": "the match in the calculator",
    "qr_too_long": "This match is too long for a QR code; use the link.",
    "download": "Download as JSON (for tournament software)",
    "print": "Print",
    "waiting": "Scoring the match with the rules engine…",
    "failed": "The rules engine could not make the sheet: {message}",
    "no_match": "No match here: open a match sheet from the calculator.",
    "detail": "{label}: {value}",
    "score": FINAL_SCORE,
    "score_athlete": "Athlete",
    "score_name": "{name} (athlete {athlete}, {colour})",
    "signatures": "Signatures",
    "sign_name": "Name",
    "sign_here": "Signature",
    "details_form": "Details of the match",
    "details_help": (
        "The date, and the event, mat and match number where there are some, are part of "
        "the match's record: its fingerprint and its link hold them."
    ),
    "details_apply": "Put them on the sheet",
}
# Who signs a match sheet, each on a line of their own.
SHEET_SIGNERS = ("Referee", "Table official")
# The labels of the sheet's fields for the match's own details.
DETAIL_FIELDS = {
    "date": "Date of the match",
    "event": "Event (optional)",
    "mat": "Mat (optional)",
    "match_number": "Match number (optional)",
}

BOARD_PAGE = {
    "title": "Audience screen",
    "description": "The score and clock of the match being recorded, for a screen facing the mat.",
}


def athlete_words(athlete: str) -> str:
    """``Athlete A``."""
    return str(UI["athlete"]).format(athlete=athlete)


def position_button(position: Position) -> str:
    """``Mount (4)``: a position's button."""
    return f"{position.name} ({position.points})"


def position_call(position: Position) -> str:
    """``Takedown, 2 points``: a position's button as a screen reader says it."""
    points = UI["count_points"]["one" if position.points == 1 else "other"]
    return f"{position.name}, {points.format(n=position.points)}"


# An athlete's button as a screen reader says it: the call, then the athlete's name (the
# page reads it from the athlete's heading): "Takedown, 2 points, Ana".
CALL_FOR = "{call},"


def kinds_button(position: Position) -> str:
    """``Mount: other kinds``: the button that opens a position's variants."""
    return f"{position.name}: other kinds"


def usual_choice(position: Position) -> str:
    """``Mount, the usual``: the standard form in a list of variants."""
    return str(UI["usual"]).format(position=position.name)


def variant_choice(edition: Edition, position: Position, variant: str) -> str:
    """``Mount (reverse, facing the legs)``."""
    return label(edition, position.id, variant)


# Buttons of the other actions, by what they record.
ACTIONS = {
    "advantage": "Advantage",
    "advantage-reason": "Advantage: why…",
    "stalling": "Stalling",
    "penalty": "Penalty: foul…",
    "severe-foul": "Severe or disciplinary foul…",
    "technique": "Technique applied…",
    "submission": "Wins by submission",
    "stoppage": "Cannot continue (stoppage)",
    "loss-of-consciousness": "Lost consciousness…",
    "award": "Points outside a position…",
    "panel": "Three referees disagree…",
    "both-stalling": "Both athletes stalling",
    "time-expired": "Time expired",
    "end": "End of the match…",
    "more": "More…",
    "count": "Count 20 s…",
    "injury": "Injury time-out",
}

# Titles of the pickers, which name the athlete they record for.
PICKER_TITLES = {
    "score": "{name}: {action}",
    "default": "{name}: {action}",
    "shared": "{action}",
}
# The label of each field a picker asks for, by event type and field: a whole phrase
# (the engine's descriptions of the fields are for the JSON API's readers). The build
# stops on a field with none.
FIELD_LABELS = {
    "score.repeated": "The position was given up and reached again (it does not score twice)",
    "penalty.defending": "The foul was done while defending a takedown or a sweep",
    "severe-foul.kind": "Kind of severe foul, when no foul is named",
    "loss-of-consciousness.head_trauma": "The loss of consciousness came from head trauma",
    "end.referee_decision": "The referee's choice of winner, if the score is level",
    "end.both_injured": "Both athletes are injured and cannot continue",
    "end.final": "The match is a final",
    "end.random_draw": "The winner of the random draw, if one was held",
}
# A call with the value its picker chose, as the log names an event it cannot score yet
# (the division is not valid): "Penalty: Fleeing the area". By event type and field.
PICKED_CALLS = {
    "score.variant": "{choice}",
    "advantage.reason": "Advantage: {choice}",
    "penalty.foul": "Penalty: {choice}",
    "severe-foul.foul": "Severe foul: {choice}",
    "technique.technique": "Technique applied: {choice}",
    "award.award": "Points: {choice}",
}
SEVERITY_NAMES = {"technical": "Severe technical foul", "disciplinary": "Disciplinary foul"}
RULING_NAMES = {"advantage": "Advantage", "none": "Nothing", "penalty": "Penalty"}
PANEL_LABEL = "Referee {n}"
WINNER_BLANK = "— none —"
CHOICE_BLANK = "— not given —"


def count_prompt(edition: Edition, count: Count, who: str) -> str:
    """``20 seconds: stalling penalty to both``: what the rules call when a count runs out
    (for one athlete, ``{name}``: the page puts in what the athlete is called)."""
    foul = edition.fouls[count.foul].name.lower()
    whom = "both" if who == "both" else "{name}"
    return f"{count.seconds} seconds: {foul} penalty to {whom}"


def count_words(edition: Edition) -> dict[str, dict[str, Any]]:
    """Each count's name and prompts (for A, for B, or for both), as the page uses them."""
    out: dict[str, dict[str, Any]] = {}
    for count in edition.counts.values():
        whom = ["both"] if count.both else list(ATHLETES)
        out[count.id] = {
            "name": count.name,
            "prompt": {who: count_prompt(edition, count, who) for who in whom},
        }
    return out
