// Safe Cracker starter bot in C++: copy this file and make it smarter.
//
// Run it through the referee (which compiles it with g++):
//   referee match safecracker sample_bots/cpp/safecracker_starter.cpp target/release/safecracker_random
//   referee match safecracker sample_bots/cpp/safecracker_starter.cpp target/release/safecracker_random --length 5 --digits 6
//   referee bench safecracker sample_bots/cpp/safecracker_starter.cpp --all
// (sizes go up to 10 digits from 1-9)
// By hand: g++ -O2 -std=c++17 -o safecracker_starter sample_bots/cpp/safecracker_starter.cpp
//
// The protocol (see protocol.md, Safe Cracker): one line at a time.
//   safecracker LENGTH DIGITS ROLE ATTEMPTS SEED   the game; ROLE is first, second or solo
//   code            answer with your secret code, e.g. "1 2 3"
//   guess           answer with a guess, e.g. "1 2 3"
//   feedback K      your last guess had K exact matches
//   opponent G K    the opponent guessed G (e.g. 1-2-3) and got K exact matches
//   end RESULT WHY  the game is over; stdin closes after it
// Print one line per request and flush (std::endl flushes).
//
// Strategy: guess a code that agrees with every feedback so far. With at most
// LIMIT codes it keeps them all and guesses the first one left in
// lexicographic order. With more (up to 9^10) it looks for a consistent code
// by random restarts and local search for at most BUDGET, and plays the least
// inconsistent one found.
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
    int matches;
};

int length = 3, digits = 3;
std::mt19937 rng(1);

int exact(const Code &a, const Code &b) {
    int k = 0;
    for (int i = 0; i < length; i++) k += a[i] == b[i];
    return k;
}

Code random_code() {
    Code code(length);
    for (int &digit : code) digit = 1 + rng() % digits;
    return code;
}

// How far `code` is from agreeing with every feedback (0: consistent).
int error(const Code &code, const std::vector<Seen> &history) {
    int total = 0;
    for (const Seen &seen : history) total += std::abs(exact(code, seen.guess) - seen.matches);
    return total;
}

// Random restarts and local search: change one digit while it does not get worse.
Code search(const std::vector<Seen> &history) {
    auto deadline = Clock::now() + BUDGET;
    Code best = random_code();
    int best_error = error(best, history);
    while (best_error > 0 && Clock::now() < deadline) {
        Code code = random_code();
        int err = error(code, history);
        for (int step = 0; step < 20 * length && err > 0 && Clock::now() < deadline; step++) {
            Code tweak = code;
            tweak[rng() % length] = 1 + rng() % digits;
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

// Every code in lexicographic order, or nothing when there are more than LIMIT.
std::vector<Code> all_codes() {
    long n = 1;
    for (int i = 0; i < length && n <= LIMIT; i++) n *= digits;
    std::vector<Code> codes;
    for (long k = 0; n <= LIMIT && k < n; k++) {
        Code code(length);
        long rest = k;
        for (int i = length - 1; i >= 0; i--, rest /= digits) code[i] = 1 + rest % digits;
        codes.push_back(code);
    }
    return codes;
}

void print(const Code &code) {
    std::string out;
    for (int digit : code) {
        if (!out.empty()) out += ' ';
        out += static_cast<char>('0' + digit);
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
        if (kind == "safecracker") {
            std::string role;
            unsigned long attempts = 0, seed = 1;
            words >> length >> digits >> role >> attempts >> seed;
            rng.seed(static_cast<unsigned>(seed));
        } else if (kind == "code") {
            print(random_code());
        } else if (kind == "guess") {
            if (history.empty()) possible = all_codes();
            last = possible.empty() ? search(history) : possible.front();
            print(last);
        } else if (kind == "feedback") {
            Seen seen{last, 0};
            words >> seen.matches;
            history.push_back(seen);
            std::vector<Code> kept;
            for (const Code &code : possible)
                if (exact(code, last) == seen.matches) kept.push_back(code);
            possible = kept;
        } else if (kind == "end") {
            break;
        }
        // "opponent G K" lines are information only: nothing to answer.
    }
}
