"""The ``croupier`` command line: parse, call the library, print, set the exit code.

Every command prints JSON with ``--json`` (``hand`` and ``count`` always do); errors are one line
on stderr and exit status 2.  No game logic lives here.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, TextIO

from croupier.errors import CroupierError, InvalidInput

if TYPE_CHECKING:
    from croupier.games import Game

__all__ = ["main", "run"]

Handler = Callable[[argparse.Namespace, TextIO], int]


def _dump(obj: object, out: TextIO, *, pretty: bool = True) -> None:
    out.write(json.dumps(obj, indent=2 if pretty else None) + "\n")


def _cmd_hand(args: argparse.Namespace, out: TextIO) -> int:
    from croupier.hands import evaluate
    from croupier.reading import hand_text, text_lines

    if args.cards:
        result = evaluate(hand_text(" ".join(args.cards)), args.ranking)
        _dump(result.to_json() | {"input": [str(c) for c in result.cards]}, out)
        return 0
    status = 0
    for number, line in enumerate(text_lines(sys.stdin), start=1):
        if isinstance(line, str) and not line.strip():
            continue
        try:
            _dump(evaluate(hand_text(line), args.ranking).to_json(), out, pretty=False)
        except CroupierError as exc:
            print(f"croupier: line {number}: {exc}", file=sys.stderr)
            status = 2
    return status


def _cmd_count(args: argparse.Namespace, out: TextIO) -> int:
    from croupier.analysis.counts import count_table

    table = count_table(args.ranking, args.cards, progress_bar=not args.quiet)
    if args.json:
        _dump(table.to_json(), out)
    else:
        out.write(table.render() + "\n")
    return 0


def _cmd_demo(args: argparse.Namespace, out: TextIO) -> int:
    from croupier.demo import run_demo

    out.write(run_demo(seed=args.seed) + "\n")
    return 0


def _cmd_replay(args: argparse.Namespace, out: TextIO) -> int:
    from croupier.scenario import load_scenario, run_scenario

    _dump(run_scenario(load_scenario(args.scenario)), out)
    return 0


def _cmd_rules(args: argparse.Namespace, out: TextIO) -> int:
    from croupier.errors import RulesViolation
    from croupier.games import get_game
    from croupier.rules import load_rules

    try:
        game = get_game(load_rules(args.file))
    except RulesViolation as exc:
        if args.json:
            problems = [{"problem": m, "section": s} for m, s in exc.problems]
            _dump({"file": args.file, "ok": False, "problems": problems}, out)
        for message, section in exc.problems:
            print(
                f"croupier: {args.file}: {message}" + (f" ({section})" if section else ""),
                file=sys.stderr,
            )
        return 2
    if args.action == "sign":
        if args.json:
            _dump({"game": game.slug, "sign": game.sign().splitlines()}, out)
        else:
            out.write(game.sign() + "\n")
    elif args.json:
        _dump({"file": args.file, "ok": True, "game": game.slug, "problems": []}, out)
    else:
        out.write(f"{args.file}: a valid {game.title} Rules Submission\n")
    return 0


def _cmd_schema(args: argparse.Namespace, out: TextIO) -> int:
    from croupier.models import json_schema

    _dump(json_schema(args.which), out)
    return 0


def _cmd_play(args: argparse.Namespace, out: TextIO) -> int:
    from croupier.terminal import play_terminal

    return play_terminal(args.game, rules_file=args.rules, seat=args.seat, seed=args.seed, out=out)


def _game_from_args(args: argparse.Namespace) -> Game:
    from croupier.games import get_game
    from croupier.rules import load_rules

    data: dict[str, Any] = {"game": args.game}
    if args.rules:
        data = dict(load_rules(args.rules).raw)
        if data.get("game") != args.game and args.game:
            from croupier.games import game_class

            if game_class(str(data.get("game"))) is not game_class(args.game):
                raise InvalidInput(f"--rules is for {data.get('game')!r}, not {args.game!r}")
    tables = dict(data.get("paytables", {}))
    for item in args.paytable or []:
        wager, sep, letter = item.partition("=")
        if not sep or not wager or not letter:
            raise InvalidInput(f"--paytable {item!r} must be WAGER=LETTER")
        tables[wager] = letter
    if tables:
        data["paytables"] = tables
    return get_game(data)


def _cmd_par(args: argparse.Namespace, out: TextIO) -> int:
    from croupier.analysis import par_sheet

    if args.method == "simulate":
        if args.report:
            raise InvalidInput("--report draws the exact sheet; use it with --method exact")
        args.unit, args.quiet = 100, False
        return _cmd_simulate(args, out)
    game = _game_from_args(args)
    sheet = par_sheet(game, wagers=args.wager or (), scheduler=args.scheduler)
    if args.json:
        _dump(sheet.to_json(), out)
    else:
        out.write(sheet.render() + "\n")
    if args.report:
        from croupier.analysis.report import write_report

        write_report(game, args.report, sheet=sheet)
        print(f"croupier: report written to {args.report}", file=sys.stderr)
    return 0


def _seed(text: str) -> int | str:
    try:
        return int(text)
    except ValueError:
        return text


def _cmd_simulate(args: argparse.Namespace, out: TextIO) -> int:
    from croupier.analysis.simulate import simulate

    if getattr(args, "kernel", False):
        return _cmd_kernel_simulate(args, out)
    game = _game_from_args(args)
    bar: Any = None

    def tick(done: int, total: int) -> None:
        nonlocal bar
        if bar is None:
            from tqdm import tqdm

            bar = tqdm(total=total, unit="round", unit_scale=True, leave=False, file=sys.stderr)
        bar.update(done - bar.n)

    try:
        result = simulate(
            game,
            rounds=args.rounds,
            seed=_seed(args.seed),
            unit=args.unit,
            progress=None if args.quiet else tick,
        )
    finally:
        if bar is not None:
            bar.close()
    if args.json:
        _dump(result.to_json(), out)
    else:
        out.write(result.render() + "\n")
    return 0


def _cmd_strategy(args: argparse.Namespace, out: TextIO) -> int:
    from croupier.analysis import strategy_text

    text = strategy_text(_game_from_args(args))
    if args.json:
        _dump({"game": args.game, "strategy": text.splitlines()}, out)
    else:
        out.write(text + "\n")
    return 0


def _cmd_kernel_simulate(args: argparse.Namespace, out: TextIO) -> int:
    from croupier.analysis.montecarlo import run

    seed = _seed(args.seed)
    if not isinstance(seed, int):
        raise InvalidInput(f"--seed {args.seed!r} must be an integer with --kernel")
    game = _game_from_args(args)
    blind = game.paytable("blind")
    if (args.rules or args.paytable) and blind is None:
        raise InvalidInput(
            f"--kernel plays {game.slug} under its default pay tables; drop --rules/--paytable "
            "or simulate through the round engine (without --kernel)"
        )
    result = run(
        game.slug,
        args.rounds,
        seed,
        scheduler=args.scheduler,
        blind=blind.letter if blind is not None else "A",
        progress=not args.quiet,
    )
    if args.json:
        _dump(result.to_json(), out)
    else:
        out.write(result.render() + "\n")
    return 0


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="croupier",
        description="Runs and proves the table games regulated in Pennsylvania (58 Pa. Code).",
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    hand = sub.add_parser("hand", help="rank one hand (or one hand a line from stdin)")
    hand.add_argument("cards", nargs="*", help="cards such as 'As Kd Th 9c 2s' ('10h' also read)")
    hand.add_argument("--ranking", default="poker5", help="poker5, four-card, three-card, ...")
    hand.add_argument("--json", action="store_true", help="JSON output (always JSON)")
    hand.set_defaults(handler=_cmd_hand)

    count = sub.add_parser("count", help="category counts over every N-card hand (exhaustive)")
    count.add_argument("--ranking", default="poker5")
    count.add_argument("--cards", type=int, required=True, help="hand size N")
    count.add_argument("--json", action="store_true", help="JSON output")
    count.add_argument("--quiet", action="store_true", help="no progress bar")
    count.set_defaults(handler=_cmd_count)

    replay = sub.add_parser("replay", help="replay a scenario round; settlement as JSON")
    replay.add_argument("scenario", help="scenario JSON file")
    replay.add_argument("--json", action="store_true", help="JSON output (always JSON)")
    replay.set_defaults(handler=_cmd_replay)

    rules = sub.add_parser("rules", help="check a Rules Submission or print its sign")
    rules.add_argument("action", choices=["check", "sign"])
    rules.add_argument("file", help="Rules Submission (TOML, or JSON)")
    rules.add_argument("--json", action="store_true", help="JSON output")
    rules.set_defaults(handler=_cmd_rules)

    schema = sub.add_parser("schema", help="JSON Schema of a Rules Submission or a scenario")
    schema.add_argument("which", choices=["rules", "scenario"])
    schema.add_argument("--json", action="store_true", help="(the schema is JSON)")
    schema.set_defaults(handler=_cmd_schema)

    play = sub.add_parser("play", help="a table in the terminal: you at one seat")
    play.add_argument("game", help="game slug, e.g. four-card-poker")
    play.add_argument("--rules", help="Rules Submission file")
    play.add_argument("--seat", type=int, default=3, help="your seat (1-7)")
    play.add_argument("--seed", type=int, help="seeded shuffle (practice only)")
    play.add_argument("--json", action="store_true", help="(the table is text)")
    play.set_defaults(handler=_cmd_play)

    par = sub.add_parser("par", help="par sheet: exact house edge of every wager")
    par.add_argument("game", help="game slug")
    par.add_argument("--rules", help="Rules Submission file")
    par.add_argument("--paytable", action="append", metavar="WAGER=LETTER")
    par.add_argument("--wager", action="append", metavar="NAME", help="limit to these (base too)")
    par.add_argument("--method", choices=["exact", "simulate"], default="exact")
    par.add_argument("--rounds", type=int, default=100_000, help="rounds with --method simulate")
    par.add_argument("--seed", default="croupier", help="seed with --method simulate")
    par.add_argument(
        "--scheduler", help="a Dask scheduler address: spread the exact solver's blocks"
    )
    par.add_argument("--json", action="store_true", help="JSON output")
    par.add_argument("--report", metavar="FILE.html", help="also write an HTML report with plots")
    par.set_defaults(handler=_cmd_par)

    sim = sub.add_parser("simulate", help="Monte Carlo through the round engine, with std errors")
    sim.add_argument("game", help="game slug")
    sim.add_argument("--rounds", type=int, required=True, help="number of rounds N")
    sim.add_argument("--seed", required=True, help="seed of the generator (int or text)")
    sim.add_argument("--rules", help="Rules Submission file")
    sim.add_argument("--paytable", action="append", metavar="WAGER=LETTER")
    sim.add_argument("--unit", type=int, default=100, help="cents per wager (default 100)")
    sim.add_argument("--json", action="store_true", help="JSON output")
    sim.add_argument("--quiet", action="store_true", help="no progress bar")
    sim.add_argument(
        "--kernel",
        action="store_true",
        help="fast numba path (Four Card Poker, UTH base game): 10^8 rounds in about a minute",
    )
    sim.add_argument("--scheduler", help="with --kernel: a Dask scheduler address (tcp://...)")
    sim.set_defaults(handler=_cmd_simulate)

    strategy = sub.add_parser("strategy", help="the optimal strategy as a readable table")
    strategy.add_argument("game", help="game slug")
    strategy.add_argument("--rules", help="Rules Submission file")
    strategy.add_argument("--paytable", action="append", metavar="WAGER=LETTER")
    strategy.add_argument("--json", action="store_true", help="JSON output")
    strategy.set_defaults(handler=_cmd_strategy)

    demo = sub.add_parser("demo", help="a seeded demonstration of what croupier does so far")
    demo.add_argument("--seed", type=int, default=2026)
    demo.add_argument("--json", action="store_true", help="(the demo is text)")
    demo.set_defaults(handler=_cmd_demo)
    return parser


def main(argv: Sequence[str] | None = None, *, out: TextIO | None = None) -> int:
    """Run the command line; returns the exit status (0 ok, 2 bad input or refused action)."""
    parser = _parser()
    args = parser.parse_args(argv)
    handler: Handler = args.handler
    try:
        return handler(args, out or sys.stdout)
    except CroupierError as exc:
        print(f"croupier: {exc}", file=sys.stderr)
        return 2


def run() -> None:  # pragma: no cover - the console script
    """Entry point of the ``croupier`` console script."""
    sys.exit(main())


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
