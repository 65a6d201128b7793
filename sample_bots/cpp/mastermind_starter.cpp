// Mastermind starter bot in C++: copy this file and make it smarter.
//
// Run it through the referee (which compiles it with g++):
//   referee match mastermind sample_bots/cpp/mastermind_starter.cpp target/release/mastermind_random
//   referee match mastermind sample_bots/cpp/mastermind_starter.cpp target/release/mastermind_random --pegs 5 --colours 8
//   referee bench mastermind sample_bots/cpp/mastermind_starter.cpp --all
// (sizes go up to 12 pegs and 36 colours)
// By hand: g++ -O2 -std=c++17 -o mastermind_starter sample_bots/cpp/mastermind_starter.cpp
//
// The protocol (see protocol.md, Mastermind): one line at a time.
//   mastermind PEGS COLOURS ROLE MAX_ATTACKS SEED   the game; ROLE is first, second or solo
//   code              answer with your secret code, e.g. "0 1 2 3"
//   attack            answer with a guess, e.g. "0 0 1 1"
//   feedback B W      your last guess: B pegs right in place, W right in colour only
//   end RESULT WHY    the game is over; stdin closes after it
// Colours 0-9 are digits, 10-35 the letters a-z. Print one line per request
// and flush (std::endl flushes).
//
// Strategy: attack with a code that agrees with every feedback so far. With
// at most LIMIT codes it keeps them all and attacks with the first one left
// in the rules' order (base C, first peg most significant). With more (up to
// 36^12) it looks for a consistent code by random restarts and local search
// for at most BUDGET, and plays the least inconsistent one found.
#include <chrono>
#include <cstdlib>
#include <iostream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

using Code = std::vector<int>;
using Clock = std::chrono::steady_clock;

const long LIMIT = 50000;                         // list every code when there are at most this many
const auto BUDGET = std::chrono::milliseconds(500);  // for a search when there are more (limit: 2 s)

struct Seen {
    Code guess;
    int black, white;
};

int pegs = 4, colours = 6;
std::mt19937 rng(1);

// The rules' reference feedback function: {black, white}.
std::pair<int, int> feedback(const Code &code, const Code &guess) {
    std::vector<int> v_code(colours), v_guess(colours);
    int black = 0, white = 0;
    for (int i = 0; i < pegs; i++) {
        if (code[i] == guess[i]) {
            black++;
        } else {
            v_code[code[i]]++;
            v_guess[guess[i]]++;
        }
    }
    for (int c = 0; c < colours; c++) white += std::min(v_code[c], v_guess[c]);
    return {black, white};
}

Code random_code() {
    Code code(pegs);
    for (int &peg : code) peg = rng() % colours;
    return code;
}

// How far `code` is from agreeing with every feedback (0: consistent).
int error(const Code &code, const std::vector<Seen> &history) {
    int total = 0;
    for (const Seen &seen : history) {
        auto [black, white] = feedback(code, seen.guess);
        total += std::abs(black - seen.black) + std::abs(white - seen.white);
    }
    return total;
}

// Random restarts and local search: change one peg while it does not get worse.
Code search(const std::vector<Seen> &history) {
    auto deadline = Clock::now() + BUDGET;
    Code best = random_code();
    int best_error = error(best, history);
    while (best_error > 0 && Clock::now() < deadline) {
        Code code = random_code();
        int err = error(code, history);
        for (int step = 0; step < 20 * pegs && err > 0 && Clock::now() < deadline; step++) {
            Code tweak = code;
            tweak[rng() % pegs] = rng() % colours;
            int e = error(tweak, history);
            if (e <= err) {
                code = tweak;
                err = e;
            }
        }
        if (err < best_error) {
            best = code;
            best_error = err;
        }
    }
    return best;
}

// Every code in the rules' order, or nothing when there are more than LIMIT.
std::vector<Code> all_codes() {
    long n = 1;
    for (int i = 0; i < pegs && n <= LIMIT; i++) n *= colours;
    std::vector<Code> codes;
    for (long k = 0; n <= LIMIT && k < n; k++) {
        Code code(pegs);
        long rest = k;
        for (int i = pegs - 1; i >= 0; i--, rest /= colours) code[i] = rest % colours;
        codes.push_back(code);
    }
    return codes;
}

void print(const Code &code) {
    static const char SYMBOLS[] = "0123456789abcdefghijklmnopqrstuvwxyz";
    std::string out;
    for (int peg : code) {
        if (!out.empty()) out += ' ';
        out += SYMBOLS[peg];
    }
    std::cout << out << std::endl;
}

int main() {
    std::vector<Code> possible;  // every code agreeing with every feedback, when listed
    std::vector<Seen> history;
    Code last;
    std::string line;
    while (std::getline(std::cin, line)) {
        std::istringstream words(line);
        std::string kind;
        if (!(words >> kind)) continue;
        if (kind == "mastermind") {
            std::string role;
            unsigned long attacks = 0, seed = 1;
            words >> pegs >> colours >> role >> attacks >> seed;
            rng.seed(static_cast<unsigned>(seed));
        } else if (kind == "code") {
            print(random_code());
        } else if (kind == "attack") {
            if (history.empty()) possible = all_codes();
            last = possible.empty() ? search(history) : possible.front();
            print(last);
        } else if (kind == "feedback") {
            Seen seen{last, 0, 0};
            words >> seen.black >> seen.white;
            history.push_back(seen);
            std::vector<Code> kept;
            for (const Code &code : possible)
                if (feedback(code, last) == std::make_pair(seen.black, seen.white)) kept.push_back(code);
            possible = kept;
        } else if (kind == "end") {
            break;
        }
    }
}
