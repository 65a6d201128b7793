#!/usr/bin/env bash
# Smoke run of the starter bots (sample_bots/*/…_starter.*, README.md here):
# builds the starters of every language whose toolchain is installed, then
# plays each against its game's random sample bot, from both seats, over a
# few seeds, at the default size and at the smallest and largest sizes the
# referee accepts. Every game must end with the verdict `ok` for both bots.
#
# Usage (from anywhere; build the referee and the sample bots first with
# `cargo build --release -p referee -p sample_bots`):
#   sample_bots/check_starters.sh                 every language found
#   sample_bots/check_starters.sh c rust          only these (python c cpp java js go rust)
#   SEEDS="1 2 3 4" sample_bots/check_starters.sh more seeds (default "1 2")
#   GAMES="mastermind" sample_bots/check_starters.sh   only these games
#
# Python, C and C++ starters are handed to the referee as they are (it
# compiles C and C++). Java, JavaScript, Go and Rust starters are too when
# the referee knows those languages (`referee languages` lists them);
# otherwise they are built here into a temporary folder and run through a
# small wrapper script, Java and Node with a memory limit big enough for
# their runtimes (128 MiB), since the referee then holds them to the limits
# of a native executable.
#
# Then each code game's starter plays a bench of solo games (40 secrets, or
# all 27 of Safe Cracker's default size) on secrets fixed by a key: every
# language must take as many attacks as the first one on each secret, as
# they all play the first code consistent with the feedback.
#
# Prints one line per game and a summary; exits 1 if a starter did not build
# or a game was not `ok` for both bots, 2 if the referee or the sample bots
# are missing. A language whose toolchain is not installed is skipped (and
# named in the summary).
set -uo pipefail
cd "$(dirname "$0")/.."

REFEREE=${REFEREE:-target/release/referee}
SEEDS=${SEEDS:-1 2}
GAMES=${GAMES:-arrow5 mastermind safecracker cryptron}
LANGS=("$@")
[ ${#LANGS[@]} -eq 0 ] && LANGS=(python c cpp java js go rust)

for bin in "$REFEREE" target/release/{arrow5,mastermind,safecracker,cryptron}_random; do
    if [ ! -x "$bin" ]; then
        echo "check_starters: $bin is missing: run cargo build --release -p referee -p sample_bots" >&2
        exit 2
    fi
done

# The settings each game is played at: the default, then the extremes the
# referee accepts (referee/src/games/*.rs: Mastermind 1-12 pegs and 2-36
# colours, Safe Cracker 1-10 digits from 1-1 to 1-9), the sizes just under
# and over the starters' LIMIT (50,000 codes: listed, then searched), and
# the shortest games (one round, one attack).
settings() {
    case $1 in
    arrow5)
        echo ""
        echo "--variant hidden-eye"
        echo "--max-rounds 1"
        echo "--variant hidden-eye --codes random"
        ;;
    mastermind)
        echo ""
        echo "--pegs 1 --colours 2"
        echo "--pegs 12 --colours 2"
        echo "--pegs 6 --colours 6"
        echo "--pegs 5 --colours 10"
        echo "--pegs 8 --colours 10"
        echo "--pegs 12 --colours 36"
        echo "--max-attacks 1 --codes random"
        ;;
    safecracker)
        echo ""
        echo "--length 1 --digits 1"
        echo "--length 10 --digits 1"
        echo "--length 1 --digits 9"
        echo "--length 5 --digits 8"
        echo "--length 5 --digits 9"
        echo "--length 10 --digits 9 --attempts 20"
        echo "--attempts 1 --codes random"
        ;;
    cryptron)
        echo ""
        ;;
    esac
}

work=$(mktemp -d "${TMPDIR:-/tmp}/check_starters.XXXXXX")
trap 'rm -rf "$work"' EXIT
chmod 755 "$work"

direct=0
"$REFEREE" languages 2>/dev/null | grep -q '^java ' && direct=1

stem() { # the file name of a game's starter in a language
    local lang=$1 game=$2
    case $lang in
    java)
        case $game in
        arrow5) echo Arrow5Starter.java ;;
        mastermind) echo MastermindStarter.java ;;
        safecracker) echo SafecrackerStarter.java ;;
        cryptron) echo CryptronStarter.java ;;
        esac
        ;;
    python) echo "${game}_starter.py" ;;
    rust) echo "${game}_starter.rs" ;;
    *) echo "${game}_starter.$lang" ;;
    esac
}

have() { command -v "$1" >/dev/null 2>&1; }

toolchain() { # is the language's compiler or runtime installed?
    case $1 in
    python) have python3 ;;
    c) have gcc ;;
    cpp) have g++ ;;
    java) have javac && have java ;;
    js) have node ;;
    go) have go ;;
    rust) have rustc ;;
    *) return 1 ;;
    esac
}

# Prints the BOT argument for the referee (and extra options after a tab),
# building what the referee cannot build itself; fails when the build fails.
prepare() {
    local lang=$1 game=$2 src dir
    src=sample_bots/$lang/$(stem "$lang" "$game")
    dir=$work/$lang-$game
    mkdir -p "$dir" && chmod 755 "$dir"
    case $lang in
    python) echo "$src" ;;
    c | cpp)
        # The referee compiles them itself (a compile error is the `compile`
        # verdict); compiled here too, so a failure says it at once.
        if [ "$lang" = c ]; then gcc -O2 -std=gnu11 -fsyntax-only "$src" || return 1; fi
        if [ "$lang" = cpp ]; then g++ -O2 -std=gnu++17 -fsyntax-only "$src" || return 1; fi
        echo "$src"
        ;;
    java)
        if [ $direct = 1 ]; then echo "$src"; return; fi
        local class
        class=$(basename "$src" .java)
        javac -d "$dir" "$src" || return 1
        printf '#!/bin/sh\nexec java -XX:+UseSerialGC -XX:CompressedClassSpaceSize=64m -XX:ReservedCodeCacheSize=64m -XX:MaxMetaspaceSize=128m -XX:-UsePerfData -Xmx128m -cp %s %s\n' \
            "$dir" "$class" >"$dir/bot"
        chmod 755 "$dir/bot"
        printf '%s\t--memory-limit 128MiB\n' "$dir/bot"
        ;;
    js)
        if [ $direct = 1 ]; then echo "$src"; return; fi
        cp "$src" "$dir/bot.js"
        printf '#!/bin/sh\nexec node --max-old-space-size=128 %s\n' "$dir/bot.js" >"$dir/bot"
        chmod 755 "$dir/bot"
        printf '%s\t--memory-limit 128MiB\n' "$dir/bot"
        ;;
    go)
        if [ $direct = 1 ]; then echo "$src"; return; fi
        CGO_ENABLED=0 GOFLAGS=-mod=mod GOPROXY=off go build -o "$dir/bot" "$src" && echo "$dir/bot"
        ;;
    rust)
        if [ $direct = 1 ]; then echo "$src"; return; fi
        rustc -O --edition 2021 -o "$dir/bot" "$src" && echo "$dir/bot"
        ;;
    esac
}

# Reads the referee's --json record: prints "ok" when both verdicts are ok,
# else what went wrong; then the result and the starter's (seat $1) slowest
# reply and peak memory.
judge() {
    python3 -c '
import json, sys
try:
    record = json.load(sys.stdin)
except ValueError:
    print("no record"); sys.exit()
bad = ["%s %s (%s)" % (p["name"], p["verdict"], p.get("detail", ""))
       for p in record["players"] if p["verdict"] != "ok"]
starter = record["players"][0 if sys.argv[1] == "a" else 1]
print("ok" if not bad else "; ".join(bad), "| winner %s %s | starter: slowest reply %.0f ms, peak %d KiB" % (
    record.get("winner"), record.get("reason"), starter.get("time_max_ms", 0), starter.get("peak_memory_kb", 0)))
' "$1"
}

runs=0 # matches and benches
failed=0
skipped=()
KEY=5eed5eed5eed5eed5eed5eed5eed5eed5eed5eed5eed5eed5eed5eed5eed5eed
declare -A first_benched # game -> the first language benched, which the others must match
for lang in "${LANGS[@]}"; do
    case $lang in
    python | c | cpp | java | js | go | rust) ;;
    *)
        echo "check_starters: unknown language $lang (python c cpp java js go rust)" >&2
        exit 2
        ;;
    esac
    if ! toolchain "$lang"; then
        skipped+=("$lang")
        echo "SKIP  $lang: its compiler or runtime is not installed"
        continue
    fi
    for game in $GAMES; do
        if ! prepared=$(prepare "$lang" "$game"); then
            failed=$((failed + 1))
            echo "FAIL  $lang $game: the starter did not build"
            continue
        fi
        bot=${prepared%%$'\t'*}
        extra=""
        [[ $prepared == *$'\t'* ]] && extra=${prepared#*$'\t'}
        while IFS= read -r options; do
            for seed in $SEEDS; do
                opponent=target/release/${game}_random
                # Cryptron's random bot takes its seed as its argument
                [ "$game" = cryptron ] && opponent="$opponent $seed"
                for seat in a b; do
                    if [ $seat = a ]; then pair=("$bot" "$opponent"); else pair=("$opponent" "$bot"); fi
                    # shellcheck disable=SC2086 # options and extra are word lists
                    verdict=$("$REFEREE" match "$game" "${pair[@]}" $options $extra --seed "$seed" --json 2>"$work/stderr" | judge $seat)
                    runs=$((runs + 1))
                    if [[ $verdict == ok* ]]; then
                        echo "ok    $lang $game ${options:-(default)} seed $seed starter in seat $seat  ${verdict#ok }"
                    else
                        failed=$((failed + 1))
                        echo "FAIL  $lang $game ${options:-(default)} seed $seed starter in seat $seat: $verdict"
                        tail -3 "$work/stderr" | sed 's/^/      /'
                    fi
                done
            done
        done < <(settings "$game")
        # The starters of every language follow one plan: on the same
        # secrets (a fixed key) each takes the same number of attacks.
        if [ "$game" != cryptron ]; then
            selection="--samples 40"
            [ "$game" = safecracker ] && selection=--all # 27 secrets
            csv=$work/bench-$lang-$game.csv
            # shellcheck disable=SC2086 # selection and extra are word lists
            summary=$("$REFEREE" bench "$game" "$bot" $selection $extra --key "$KEY" --csv "$csv" 2>&1 | grep '^Attacks:')
            # secret index and attacks, one line per secret
            cut -d, -f1,3 "$csv" 2>/dev/null | sort -n >"$csv.attacks"
            runs=$((runs + 1))
            first=${first_benched[$game]:-}
            if [ -z "$summary" ]; then
                failed=$((failed + 1))
                echo "FAIL  $lang $game bench: no result"
            elif [ -n "$first" ] && ! cmp -s "$csv.attacks" "$work/bench-$first-$game.csv.attacks"; then
                failed=$((failed + 1))
                echo "FAIL  $lang $game bench: not the attacks of the $first starter on the same secrets ($summary)"
            else
                [ -z "$first" ] && first_benched[$game]=$lang
                echo "ok    $lang $game bench: $summary"
            fi
        fi
    done
done

echo "check_starters: $runs matches and benches, $failed failures${skipped[*]:+, skipped (not installed): ${skipped[*]}}"
[ $failed -eq 0 ]
