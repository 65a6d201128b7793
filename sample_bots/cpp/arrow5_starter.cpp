// Arrow 5 starter bot in C++: copy this file and make it smarter.
//
// Run it through the referee (which compiles it with g++):
//   referee match arrow5 sample_bots/cpp/arrow5_starter.cpp target/release/arrow5_random
//   referee match arrow5 sample_bots/cpp/arrow5_starter.cpp target/release/arrow5_random --variant hidden-eye
//   referee bench arrow5 sample_bots/cpp/arrow5_starter.cpp --samples 200
// By hand: g++ -O2 -std=c++17 -o arrow5_starter sample_bots/cpp/arrow5_starter.cpp
//
// The protocol (see protocol.md): one line at a time from the referee.
//   arrow5 VARIANT ROLE MAX_ROUNDS SEED   the game; use SEED for randomness
//   code                                  answer with your secret code, e.g. "0 1 2 3 4"
//   attack                                answer with your attack
//   signal < . >                          the signal for your last attack ("-" = no marks)
//   end win|loss|draw REASON              the game is over; stdin closes after it
// Symbols are 0-9 and E (the eye). Print one line per request and flush
// (std::endl flushes).
//
// Strategy: keep every code consistent with the signals so far (all 55,440
// codes at the start) and attack with the first of them.
#include <iostream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

static const std::string SYMBOLS = "0123456789E";

// The marks `secret` gives `attack`: '<', '.' or '>' for each symbol of the
// attack found in the secret; in hidden-eye the eye never gets a mark.
static std::string signal_of(const std::string &secret, const std::string &attack, bool hidden_eye) {
    std::string marks;
    for (size_t i = 0; i < attack.size(); i++) {
        size_t j = secret.find(attack[i]);
        if (j == std::string::npos || (hidden_eye && attack[i] == 'E')) continue;
        marks += j < i ? '<' : j == i ? '.' : '>';
    }
    return marks;
}

static std::string spaced(const std::string &code) {
    std::string out;
    for (char c : code) {
        if (!out.empty()) out += ' ';
        out += c;
    }
    return out;
}

int main() {
    std::vector<std::string> possible;
    for (char a : SYMBOLS)
        for (char b : SYMBOLS)
            for (char c : SYMBOLS)
                for (char d : SYMBOLS)
                    for (char e : SYMBOLS) {
                        std::string code{a, b, c, d, e};
                        bool distinct = true;
                        for (int i = 0; i < 5; i++)
                            for (int j = 0; j < i; j++) distinct = distinct && code[i] != code[j];
                        if (distinct) possible.push_back(code);
                    }
    bool hidden_eye = false;
    std::mt19937 rng(1);
    std::string last, line;
    while (std::getline(std::cin, line)) {
        std::istringstream words(line);
        std::string kind;
        if (!(words >> kind)) continue;
        if (kind == "arrow5") {
            std::string variant, role;
            unsigned long rounds = 0, seed = 1;
            words >> variant >> role >> rounds >> seed;
            hidden_eye = variant == "hidden-eye";
            rng.seed(static_cast<unsigned>(seed));
        } else if (kind == "code") {
            std::cout << spaced(possible[rng() % possible.size()]) << std::endl;
        } else if (kind == "attack") {
            last = possible.front();
            std::cout << spaced(last) << std::endl;
        } else if (kind == "signal") {
            std::string marks, word;
            while (words >> word)
                if (word != "-") marks += word == "\xc2\xb7" ? "." : word;  // accept '·' too
            std::vector<std::string> kept;
            for (const std::string &code : possible)
                if (code != last && signal_of(code, last, hidden_eye) == marks) kept.push_back(code);
            if (!kept.empty()) possible = kept;  // never empty, whatever the referee said
        } else if (kind == "end") {
            break;
        }
    }
}
