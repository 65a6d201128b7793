// Cryptron starter bot in C++, written to the rules' "Bot Format": read the
// player number, then loop: read the opponent's move (except on player 1's
// first turn), choose a move, print it.
//
// The bot keeps its own board in its own frame (its base is row 0); the
// opponent's rows arrive in the opponent's frame, so its row r is our 7 - r.
//
// Strategy: among the legal turns, the one that moves a droid furthest with
// its second attack, preferring droids that have not yet passed every enemy
// (a simple plan, different from the C starter's, so they make a real game).
//
// Run it through the referee (which compiles it with g++):
//   referee match cryptron sample_bots/cpp/cryptron_starter.cpp sample_bots/c/cryptron_starter.c
// By hand: g++ -O2 -o cryptron_starter sample_bots/cpp/cryptron_starter.cpp
#include <array>
#include <cstdio>
#include <iostream>
#include <string>

struct Board {
    std::array<int, 8> mine{}, theirs{};
    int total(int r) const { return mine[r] + theirs[r]; }
    bool room(int r) const { return r == 0 || r == 7 || total(r) < 6; }
};

static std::string choose(Board &b) {
    int best = -1000, b1 = -1, b2 = -1, blen = 0;
    int highest_enemy = 0;
    for (int r = 0; r < 8; r++)
        if (b.theirs[r]) highest_enemy = r;
    for (int i1 = 0; i1 < 7; i1++) {
        if (!b.mine[i1] || !b.room(i1 + 1)) continue;
        int len = (i1 + 1 == 7) ? 1 : b.total(i1 + 1);
        Board after = b;
        after.mine[i1]--;
        after.mine[i1 + 1]++;
        bool any = false;
        for (int i2 = 0; len > 0 && i2 + len <= 7; i2++) {
            if (!after.mine[i2] || !after.room(i2 + len)) continue;
            any = true;
            // Rows gained, and a bonus for droids still behind an enemy.
            int value = 2 * len + (i2 <= highest_enemy ? 3 : 0) + (i1 <= highest_enemy ? 1 : 0);
            if (value > best) { best = value; b1 = i1; b2 = i2; blen = len; }
        }
        if (!any && (i1 <= highest_enemy ? 1 : 0) > best) {
            best = i1 <= highest_enemy ? 1 : 0; b1 = i1; b2 = -1; blen = len;
        }
    }
    if (b1 < 0) return "0,0,0,0";  // no first attack: pass
    b.mine[b1]--;
    b.mine[b1 + 1]++;
    if (b2 < 0)  // no second attack: write f1,f1
        return std::to_string(b1) + "," + std::to_string(b1 + 1) + "," +
               std::to_string(b1 + 1) + "," + std::to_string(b1 + 1);
    b.mine[b2]--;
    b.mine[b2 + blen]++;
    return std::to_string(b1) + "," + std::to_string(b1 + 1) + "," + std::to_string(b2) +
           "," + std::to_string(b2 + blen);
}

int main() {
    int player;
    if (!(std::cin >> player)) return 0;
    Board b;
    b.mine[0] = 6;
    b.theirs[7] = 6;
    for (int r = 1; r <= 6; r++) b.mine[r] = b.theirs[r] = 1;
    for (int turn = 1;; turn++) {
        if (!(player == 1 && turn == 1)) {
            std::string line;
            if (!(std::cin >> line) || line == "end") return 0;  // game over
            int i1, f1, i2, f2;
            if (std::sscanf(line.c_str(), "%d,%d,%d,%d", &i1, &f1, &i2, &f2) != 4) return 0;
            if (!(i1 == 0 && f1 == 0 && i2 == 0 && f2 == 0)) {  // 0,0,0,0 is a pass
                b.theirs[7 - i1]--;
                b.theirs[7 - f1]++;
                if (i2 != f2) {  // i2 == f2: no second attack
                    b.theirs[7 - i2]--;
                    b.theirs[7 - f2]++;
                }
            }
        }
        std::cout << choose(b) << std::endl;
    }
}
