""" "My division" in words: the page's own text (:data:`PAGE`: title, introduction,
headings, buttons), the messages on the form's fields, and every word the lookup page
shows around the structured answer (names, unlock conditions, what fouls cost, penalty
scales, remarks, the comparison of editions, what changed for everyone). The build writes
:func:`page_words` into the page as JSON; the page's script fills in the answer with it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from ..engines.my_division import changed_record, for_everyone
from ..model import MAX_AGE, MIN_AGE, UNIFORMS, Edition, Foul, Ladder
from ..model.fouls import LadderStep
from .division import UNIFORM_NAMES, rank_name
from .errors import choices
from .markdown import expand
from .readings import OUR_READING, mark_text, sentence_readings
from .scoring import foul_effect, ordinal, step_words

AGE_DIGITS = 9  # the engine reads at most this many digits as an age (engines.division)

# -- Messages on the form's fields: what to do, never the engine's wording ---------------


def field_problem(problem: str, details: Mapping[str, Any]) -> str:
    """The message shown on a form field for a RulesError (its problem code and details).
    It says what to do, and never repeats the value, which is in the field itself."""
    phrase = FIELD_PROBLEMS.get(problem)
    if phrase is None:
        from .errors import message  # any other problem: the error's own sentence

        return message(problem, details)
    return phrase(details)


def _age(details: Mapping[str, Any]) -> str:
    low, high = details.get("minimum", MIN_AGE), details.get("maximum", MAX_AGE)
    value = details.get("value")
    text = str(value).strip() if isinstance(value, str | int) else ""
    if value is None or text == "":
        return f"Enter the athlete's age in years, from {low} to {high}."
    if text.isascii() and text.isdigit():
        if len(text) <= AGE_DIGITS and int(text) < low:
            return f"The rules start at age {low}: enter an age from {low} to {high}."
        return f"The rules go up to age {high}: enter an age from {low} to {high}."
    return f"Enter the age as a whole number of years, from {low} to {high}."


def _axis(details: Mapping[str, Any]) -> str:
    return "LVL" if details.get("axis") == "lvl" else "belt"


def _rank_required(details: Mapping[str, Any]) -> str:
    ranks = details["ranks"]
    if details["axis"] == "lvl":
        return (
            f"From age {details['from_age']}, Edition {details['edition']} goes by LVL: choose "
            f"LVL {choices(ranks)}.{_LVL_IS_PLACEMENT}"
        )
    return (
        f"From age {details['from_age']}, Edition {details['edition']} goes by belt: choose "
        f"{choices(ranks)}."
    )


def _rank_not_at_age(details: Mapping[str, Any]) -> str:
    word = _axis(details)
    leave = f", or leave the {word} empty" if details["optional"] else ""
    if details["kids"]:
        return (
            f"Kids' {word}s are for athletes under {details['max_age'] + 1}: choose "
            f"{choices(details['ranks'])}{leave}."
        )
    name = str(details["rank"]).capitalize()
    return (
        f"{name} {word} is for athletes aged {details['min_age']} and over: choose "
        f"{choices(details['ranks'])}{leave}."
    )


def _unknown_rank(details: Mapping[str, Any]) -> str:
    word = _axis(details)
    shown = "LVL " if details["axis"] == "lvl" else ""
    return f"Choose a {word} from the list: {shown}{choices(details['ranks'])}."


FIELD_PROBLEMS = {
    "age-out-of-range": _age,
    "rank-required": _rank_required,
    "rank-not-at-age": _rank_not_at_age,
    "unknown-rank": _unknown_rank,
    "unknown-uniform": lambda d: "Choose Gi or No-Gi.",
    "unknown-experience": lambda d: "Tick only the kinds of prior experience listed.",
    "experience-not-list": lambda d: "Tick only the kinds of prior experience listed.",
    "unknown-edition": lambda d: "Choose an edition from the list.",
}

# -- The page's words --------------------------------------------------------------------

UI = {
    "legal": "✓ Legal for you",
    "not_legal": "✗ Not legal for you",
    "never": "✗ Never allowed",
    "may_chart": "From the chart, you may also use: {names}.",
    "none_legal": "None of the chart's restricted techniques is legal for you yet.",
    "group": "Your group in the chart: {group}.",
    "competes_at": "With your prior experience you compete at {rank}.",
    "first_allowed": "First allowed for “{group}”.",
    "prohibited": "For any athlete at any level: it can cause serious injury.",
    "our_reading": OUR_READING,
    "foul_applies": "A foul for you",
    "uniform_fouls": "Fouls in {uniform} only, for you as for everyone in it: {names}.",
    "foul_not_here": "Not a foul for you",
    "foul_legal_here": "Not a foul for you: {technique} is legal for you",
    "step": "Penalty",
    "what": "What it does",
    "disqualifies_severe": (
        "{count} severe fouls, a technique not allowed for you among them: "
        "disqualification from the match."
    ),
    "disqualifies_disciplinary": (
        "A disciplinary foul: disqualification from the whole competition, Gi and No-Gi."
    ),
    "compare_none": (
        "Nothing in the chart, the fouls that concern you or your penalty scale differs for "
        "you between {old} and {new}."
    ),
    "compare_intro": "What differs for you between {old} and {new}:",
    "compare_intro_any": (
        "Whatever your {field} in {edition} was, this differs for you between {old} and {new}:"
    ),
    "compare_none_any": (
        "Whatever your {field} in {edition} was, nothing in the chart, the fouls that concern "
        "you or your penalty scale differs for you between {old} and {new}."
    ),
    "depends": (
        "These may have changed for you, depending on your {field} in {edition} (not given: "
        "choose it above to see): {names}."
    ),
    "everyone": "What {new} changed for every athlete:",
    "everyone_item": "{name}: {summary}",
    "compare_fix": "To compare with {edition}, correct the field marked.",
    "item": "What",
    "technique_true": "✓ Legal",
    "technique_false": "✗ Not legal",
    "foul_true": "A foul",
    "foul_false": "Not a foul",
    "scale": "Your penalty scale",
    "separator": ", ",
    "glance_line": "{when}: {names}.",
    "never_for_anyone": "Never, for any athlete",
    "chart_row": "Its row in the technique chart",
    "who_unknown": "Choose a technique from the list.",
}

# The page's own text: the template prints it (lookup.md.j2); :func:`page_text` adds the
# introduction, made from the rule data.
PAGE = {
    "title": "My division",
    "description": (
        "My division: which techniques an athlete may use, which not and when they will, "
        "the fouls that concern them, their penalty scale, and what changed between editions."
    ),
    "submit": "Show my division",
    "results": "The rules for this athlete",
    "glance_may": "What you may do",
    "glance_not_yet": "What you may not do, and when that changes",
    "glance_disqualifies": "Penalties and disqualification",
    "may_do": "What you may do",
    "not_allowed": "What is not allowed for you, and when it will be",
    "fouls": "Fouls that concern you",
    "scale": "Your penalty scale",
    "changed": "What changed for you between editions",
    "who": "Who may use a technique?",
    "technique": "Technique",
    "show_divisions": "Show divisions",
    # The answer's tools: share it (docs/assets/app/share.js), print the chart's poster.
    "share_label": "Share this answer",
    "copy_label": "Copy the link to this answer",
    "copied": "Link copied",
    "failed": "Could not copy: the address bar holds the link",
    "unavailable": "Copying needs a secure (https) address: show the link",
    "poster": "This answer as a poster to print (PDF)",
    # A division's own address (build_scripts/pages/division_pages.py)
    "open_answer": "Open the whole answer in My division",
    "preview_alt": "The answer at a glance: what this athlete may do, and what not yet",
}
UNLISTED_NOTE = "unlisted-techniques"  # the note that says what the chart does not restrict


def page_text(editions: tuple[Edition, ...]) -> dict[str, Any]:
    """The page's own text (:data:`PAGE`), with an introduction for each edition
    (``intros``, by ID), from its rule data: which fields the form asks for from which age.
    The page shows the chosen edition's only."""
    return {**PAGE, "intros": {edition.id: _intro(edition) for edition in editions}}


def _intro(edition: Edition) -> str:
    rules = edition.eligibility
    by_age: dict[int, list[str]] = {rules.rank_required_from: [f"the {_AXIS_WORDS[rules.axis]}"]}
    if edition.experiences and rules.promotion is not None:
        by_age.setdefault(rules.promotion.min_age, []).append("prior experience")
    steps = [f"from {age}, {' and '.join(fields)}" for age, fields in sorted(by_age.items())]
    return (
        "Enter the athlete's age and uniform; the form then asks only for what can change "
        f"the answer at that age in {edition.title}: {'; '.join(steps)}. The answer appears "
        "at once: first what matters most, then each part in full, every rule with the "
        "clause it comes from."
    )


def page_words(editions: tuple[Edition, ...], unlocks: Iterable[str]) -> dict[str, Any]:
    """Every word the lookup page needs around an answer, from the rule data.
    ``unlocks``: the unlock keys the answers use (the table lists every one)."""
    keys = sorted(set(unlocks))
    fields = {}
    for edition in editions:
        axis = edition.eligibility.axis
        fields[f"field_{axis}"] = _AXIS_WORDS[axis]
        if axis == "lvl":
            fields["placement_lvl"] = _LVL_IS_PLACEMENT.strip()
    said = {e.id: _edition_words(e, keys) for e in editions}
    by_id = {e.id: e for e in editions}
    for edition in editions:
        if edition.based_on in by_id:
            said[edition.id]["changes"] = _change_words(by_id[edition.based_on], edition)
    return {"ui": {**UI, **fields}, "editions": said}


_AXIS_WORDS = {"lvl": "LVL", "belt": "belt"}
_LVL_IS_PLACEMENT = (
    " Your LVL is the federation's fair-match placement: it cannot be worked out from a belt."
)


def _edition_words(edition: Edition, unlocks: list[str]) -> dict[str, Any]:
    promotion = edition.eligibility.promotion
    axis = edition.eligibility.axis
    below = edition.eligibility.rank_required_from
    remarks = {
        "rank-unused": (
            f"Under {below}, the {'LVL' if axis == 'lvl' else 'belt'} changes nothing in "
            f"{edition.title}: age alone decides. You may leave it empty."
        )
    }
    if promotion is not None:
        moved = rank_name(edition, promotion.rank_from)
        remarks["experience-rank"] = (
            f"Prior experience changes nothing here: in {edition.title} it only moves "
            f"{moved}s up (§{promotion.clause})."
        )
        remarks["experience-age"] = (
            f"Prior experience changes nothing under {promotion.min_age} (§{promotion.clause})."
        )
    return {
        "title": edition.title,
        "techniques": {t.id: t.name for t in edition.techniques.values()},
        "descriptions": {t.id: t.description for t in edition.techniques.values()},
        "groups": {g.id: g.label for g in edition.groups},
        "ranks": {r: rank_name(edition, r) for r in edition.ranks},
        "uniforms": dict(UNIFORM_NAMES),
        "fouls": {f.id: _foul_words(edition, f) for f in edition.fouls.values()},
        "ladders": {ladder.id: _ladder_words(ladder) for ladder in edition.ladders},
        "notes": {n.id: n.title for n in edition.notes.values()},
        "readings": {  # the notes our words and readings follow, for the mark of our reading
            "descriptions": list(sentence_readings(edition, "technique-descriptions")),
            "techniques": {
                t: ids for t in edition.techniques if (ids := edition.reading_ids("techniques", t))
            },
        },
        "unlocks": {key: unlock_words(edition, key) for key in unlocks if _fits(edition, key)},
        "whens": {key: unlock_when(edition, key) for key in unlocks if _fits(edition, key)},
        "remarks": remarks,
        "unlisted": {
            "text": expand(edition, edition.notes[UNLISTED_NOTE].decision),
            "note": UNLISTED_NOTE,
            "clause": edition.notes[UNLISTED_NOTE].clause,
            "lines": {",".join(ids): may_use_line(edition, ids) for ids in _unlisted_sets(edition)},
            "readings": unlisted_readings(edition),
        },
        "rank_field": "LVL" if axis == "lvl" else "belt",
    }


def may_use_line(edition: Edition, ids: Iterable[str]) -> str:
    """What an athlete may use first of all: everything the chart does not restrict, with
    the edition's examples of it (its ``unlisted`` table) that they can use. ``Everything
    the chart does not restrict, such as the armbar, kimura and rear-naked choke.``
    (``You may use everything …``)"""
    names = [edition.unlisted[i].name for i in ids]
    if not names:
        return "You may use everything the chart does not restrict."
    listed = ", ".join(names[:-1]) + " and " + names[-1] if len(names) > 1 else names[0]
    return f"You may use everything the chart does not restrict, such as the {listed}."


def _unlisted_sets(edition: Edition) -> list[list[str]]:
    """The examples of each uniform (a collar choke in Gi only), as the answers list them."""
    found = [[t.id for t in edition.unlisted.values() if t.worn_in(u)] for u in UNIFORMS]
    return [ids for n, ids in enumerate(found) if ids not in found[:n]]


def _fits(edition: Edition, key: str) -> bool:
    """Whether an unlock key names only ranks of this edition."""
    for part in key.split(";"):
        name, _, value = part.partition("=")
        if name == "rank" and any(rank not in edition.ranks for rank in value.split(",")):
            return False
    return True


def unlock_words(edition: Edition, key: str) -> str:
    """An unlock key (``age=18;rank=brown,black;uniform=nogi``) as a phrase:
    ``Legal for you from age 18 at brown belt or above, in No-Gi``."""
    if key == "never":
        return "Not legal for you at your age or any later one"
    return "Legal for you " + _unlock_tail(edition, key)


def unlock_when(edition: Edition, key: str) -> str:
    """When an unlock comes, as the head of a line: ``From age 18 at brown belt or
    above, in No-Gi``, ``Not at your age or any later one``."""
    if key == "never":
        return "Not at your age or any later one"
    tail = _unlock_tail(edition, key)
    return tail[:1].upper() + tail[1:]


def _unlock_tail(edition: Edition, key: str) -> str:
    found = dict(part.partition("=")[::2] for part in key.split(";"))
    age = found.get("age")
    ranks = found["rank"].split(",") if "rank" in found else []
    names = [rank_name(edition, rank) for rank in ranks]
    upward = len(ranks) > 1 and list(edition.ranks)[-len(ranks) :] == ranks
    at = f"{names[0]} or above" if upward else choices(names)
    if age and ranks:
        head = f"from age {age} at {at}"
    elif age:
        head = f"from age {age}"
    elif ranks:
        head = f"from {names[0]}" if upward else f"at {at}"
    else:
        head = ""
    kits = found["uniform"].split(",") if "uniform" in found else []
    kit = "in " + choices(UNIFORM_NAMES[u] for u in kits) if kits else ""
    return ", ".join(part for part in (head, kit) if part)


def _change_words(old: Edition, new: Edition) -> dict[str, dict[str, str]]:
    """Each change of the newer edition that concerns every athlete, by ``collection/id``:
    the record's name and the amendment's summary of the change."""
    found = {}
    for change in for_everyone(old, new):
        record = changed_record(old, new, change.collection, change.id)
        summary = new.changed(change.collection, change.id)
        found[f"{change.collection}/{change.id}"] = {
            "name": record.name,
            "summary": summary.summary if summary else "",
        }
    return found


def foul_cost(edition: Edition, foul: Foul) -> str:
    """What a foul costs the athlete: the scoring page's words, said to them."""
    return foul_effect(edition, foul, for_athlete=True) + "."


RESET_WORDS = {
    "reaping": (
        "The reaping reset applies to you: when both athletes sit with their legs crossed "
        "and one stands up, putting the other in the reaping position, the referee stops the "
        "match, sits the bottom athlete back down, stands the top athlete at a distance and "
        "restarts; after a sweep, the top athlete first gets 2 points."
    ),
}


def _foul_words(edition: Edition, foul: Foul) -> dict[str, Any]:
    plain = expand(edition, foul.description).replace("**", "")
    words: dict[str, Any] = {
        "name": foul.name,
        "description": plain,
        "cost": foul_cost(edition, foul),
        "clause": foul.clause,
    }
    if foul.unless_legal:
        words["technique"] = edition.techniques[foul.unless_legal].name.lower()
    if foul.reset:
        words["reset"] = RESET_WORDS[foul.reset]
    return words


def _ladder_words(ladder: Ladder) -> dict[str, Any]:
    last = len(ladder.steps)
    return {
        "name": ladder.name,
        "steps": [step_words(step) for step in ladder.steps],
        "disqualifies": f"Your {ordinal(last)} penalty disqualifies you from the match.",
        "line": f"{ladder.name}: {ladder_line(ladder.steps)}.",
    }


SHORT_STEPS = {
    "mark": "marked only",
    "advantage": "an advantage to the opponent",
    "points": "{points} points to the opponent",
    "disqualify": "disqualification",
}


def ladder_line(steps: tuple[LadderStep, ...]) -> str:
    """A penalty scale on one line, steps that do the same taken together: ``1st marked
    only · 2nd an advantage to the opponent · 3rd–5th 2 points to the opponent · ...``."""
    runs: list[list[Any]] = []
    for number, step in enumerate(steps, 1):
        said = SHORT_STEPS[step.effect].format(points=step.points)
        if runs and runs[-1][2] == said:
            runs[-1][1] = number
        else:
            runs.append([number, number, said])
    parts = []
    for first, last, said in runs:
        which = ordinal(first) if first == last else f"{ordinal(first)}–{ordinal(last)}"
        parts.append(f"{which} {said}")
    return " · ".join(parts)


# -- A division's own address: its title and one-line summary ------------------------------


def division_title(
    edition: Edition,
    *,
    ages: tuple[int, int],
    uniform: str,
    ranks: tuple[str, ...] = (),
    experience: bool | None = None,
) -> str:
    """Who an answer is for, as a title: ``My division: ages 13 to 14, No-Gi (Edition 2)``,
    ``My division: 18 and over, white belt with prior experience, Gi (Edition 2)``."""
    low, high = ages
    parts = [
        f"age {low}" if low == high else f"{low} and over" if high == MAX_AGE
        else f"ages {low} to {high}"
    ]  # fmt: skip
    if ranks and edition.eligibility.axis == "lvl":
        parts.append(choices(rank_name(edition, rank) for rank in ranks))
    elif ranks:
        parts.append(choices(edition.ranks[rank].name.lower() for rank in ranks) + " belt")
    if experience is not None:
        extra = "with prior experience" if experience else "without prior experience"
        parts[-1] += f" {extra}"
    parts.append(UNIFORM_NAMES[uniform])
    return f"{PAGE['title']}: {', '.join(parts)} ({edition.title})"


def division_summary(edition: Edition, answer: Mapping[str, Any]) -> str:
    """An answer in a line or two (a link preview's description, a share sheet's text):
    what the athlete may do, then the nearest change, if any."""
    lines = [may_use_line(edition, answer["unlisted"])]
    ours = mark_text(edition, unlisted_readings(edition))
    restricted = [item for item in answer["not_legal"] if not item["prohibited"]]
    if restricted:
        when = restricted[0]["unlock"]
        names = [edition.techniques[i["id"]].name for i in restricted if i["unlock"] == when]
        lines.append(
            UI["glance_line"].format(
                when=unlock_when(edition, when), names=UI["separator"].join(names)
            )
        )
    return " ".join([*lines, f"({ours})"] if ours else lines)


def unlisted_readings(edition: Edition) -> list[str]:
    """The notes behind the examples of what the chart does not restrict (our reading)."""
    return list(
        dict.fromkeys(n for t in edition.unlisted for n in edition.reading_ids("unlisted", t))
    )


def division_glance(edition: Edition, answer: Mapping[str, Any]) -> dict[str, Any]:
    """An answer at a glance, in sentences, as the lookup page draws it first: what the
    athlete may do (``may``), what not and when that changes, soonest first (``not_yet``,
    the prohibited last), the penalty scale in a line and the disqualifying fouls."""
    legal = [edition.techniques[t].name for t in answer["legal"]]
    may = [may_use_line(edition, answer["unlisted"])]
    may.append(
        UI["may_chart"].format(names=UI["separator"].join(legal)) if legal else UI["none_legal"]
    )
    runs: list[tuple[str, list[str]]] = []
    for item in answer["not_legal"]:
        when = "prohibited" if item["prohibited"] else item["unlock"]
        if runs and runs[-1][0] == when:
            runs[-1][1].append(edition.techniques[item["id"]].name)
        else:
            runs.append((when, [edition.techniques[item["id"]].name]))
    not_yet = [
        UI["glance_line"].format(
            when=UI["never_for_anyone"] if when == "prohibited" else unlock_when(edition, when),
            names=UI["separator"].join(names),
        )
        for when, names in runs
    ]
    ladder = next(ladder for ladder in edition.ladders if ladder.id == answer["ladder"])
    return {
        "may": may,
        "not_yet": not_yet,
        "scale": _ladder_words(ladder)["line"],
        "severe": UI["disqualifies_severe"].format(count=len(answer["severe"])),
        "severe_names": [edition.fouls[f].name for f in answer["severe"]],
        "disciplinary": UI["disqualifies_disciplinary"],
    }
