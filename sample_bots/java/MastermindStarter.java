// Mastermind starter bot in Java: copy this file and make it smarter.
//
// Run it through the referee (which compiles it with javac):
//   referee match mastermind sample_bots/java/MastermindStarter.java target/release/mastermind_random
//   referee match mastermind sample_bots/java/MastermindStarter.java target/release/mastermind_random --pegs 5 --colours 8
//   referee bench mastermind sample_bots/java/MastermindStarter.java --all
// (sizes go up to 12 pegs and 36 colours)
// By hand: javac -d build sample_bots/java/MastermindStarter.java && java -cp build MastermindStarter
//
// The protocol (see protocol.md, Mastermind): one line at a time.
//   mastermind PEGS COLOURS ROLE MAX_ATTACKS SEED   the game; ROLE is first, second or solo
//   code              answer with your secret code, e.g. "0 1 2 3"
//   attack            answer with a guess, e.g. "0 0 1 1"
//   feedback B W      your last guess: B pegs right in place, W right in colour only
//   end RESULT WHY    the game is over; stdin closes after it
// Colours 0-9 are digits, 10-35 the letters a-z. Print one line per request
// and flush.
//
// Strategy: attack with a code that agrees with every feedback so far. With
// at most LIMIT codes it keeps them all and attacks with the first one left
// in the rules' order (base C, first peg most significant). With more (up to
// 36^12) it looks for a consistent code by random restarts and local search
// for at most BUDGET_NANOS, and plays the least inconsistent one found.
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

public class MastermindStarter {
    static final long LIMIT = 50_000; // list every code when there are at most this many
    static final long BUDGET_NANOS = 500_000_000; // for a search when there are more (limit: 2 s)
    static final String SYMBOLS = "0123456789abcdefghijklmnopqrstuvwxyz";

    static int pegs = 4, colours = 6;
    static Random rng = new Random(1);
    static List<int[]> guesses = new ArrayList<>(); // our attacks so far
    static List<int[]> feedbacks = new ArrayList<>(); // and their {black, white}

    // The rules' reference feedback function: {black, white}.
    static int[] feedback(int[] code, int[] guess) {
        int[] vCode = new int[colours], vGuess = new int[colours];
        int black = 0, white = 0;
        for (int i = 0; i < pegs; i++) {
            if (code[i] == guess[i]) {
                black++;
            } else {
                vCode[code[i]]++;
                vGuess[guess[i]]++;
            }
        }
        for (int c = 0; c < colours; c++) white += Math.min(vCode[c], vGuess[c]);
        return new int[] {black, white};
    }

    static int[] randomCode() {
        int[] code = new int[pegs];
        for (int i = 0; i < pegs; i++) code[i] = rng.nextInt(colours);
        return code;
    }

    // How far `code` is from agreeing with every feedback (0: consistent).
    static int error(int[] code) {
        int total = 0;
        for (int h = 0; h < guesses.size(); h++) {
            int[] got = feedback(code, guesses.get(h)), seen = feedbacks.get(h);
            total += Math.abs(got[0] - seen[0]) + Math.abs(got[1] - seen[1]);
        }
        return total;
    }

    // Random restarts and local search: change one peg while it does not get worse.
    static int[] search() {
        long deadline = System.nanoTime() + BUDGET_NANOS;
        int[] best = randomCode();
        int bestError = error(best);
        while (bestError > 0 && System.nanoTime() < deadline) {
            int[] code = randomCode();
            int err = error(code);
            for (int step = 0; step < 20 * pegs && err > 0 && System.nanoTime() < deadline; step++) {
                int[] tweak = code.clone();
                tweak[rng.nextInt(pegs)] = rng.nextInt(colours);
                int e = error(tweak);
                if (e <= err) {
                    code = tweak;
                    err = e;
                }
            }
            if (err < bestError) {
                best = code;
                bestError = err;
            }
        }
        return best;
    }

    // Every code in the rules' order, or none when there are more than LIMIT.
    static List<int[]> allCodes() {
        long n = 1;
        for (int i = 0; i < pegs && n <= LIMIT; i++) n *= colours;
        List<int[]> codes = new ArrayList<>();
        for (long k = 0; n <= LIMIT && k < n; k++) {
            int[] code = new int[pegs];
            long rest = k;
            for (int i = pegs - 1; i >= 0; i--, rest /= colours) code[i] = (int) (rest % colours);
            codes.add(code);
        }
        return codes;
    }

    static void send(int[] code) {
        StringBuilder out = new StringBuilder();
        for (int peg : code) {
            if (out.length() > 0) out.append(' ');
            out.append(SYMBOLS.charAt(peg));
        }
        System.out.println(out);
        System.out.flush();
    }

    public static void main(String[] args) throws IOException {
        List<int[]> possible = new ArrayList<>(); // every code agreeing with every feedback, when listed
        int[] last = null;
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
        String line;
        while ((line = in.readLine()) != null) {
            String[] words = line.trim().split("\\s+");
            switch (words[0]) {
                case "mastermind":
                    pegs = Integer.parseInt(words[1]);
                    colours = Integer.parseInt(words[2]);
                    rng = new Random(Long.parseLong(words[5]));
                    break;
                case "code":
                    send(randomCode());
                    break;
                case "attack":
                    if (guesses.isEmpty()) possible = allCodes();
                    last = possible.isEmpty() ? search() : possible.get(0);
                    send(last);
                    break;
                case "feedback": {
                    int[] seen = {Integer.parseInt(words[1]), Integer.parseInt(words[2])};
                    guesses.add(last);
                    feedbacks.add(seen);
                    List<int[]> kept = new ArrayList<>();
                    for (int[] code : possible) {
                        int[] got = feedback(code, last);
                        if (got[0] == seen[0] && got[1] == seen[1]) kept.add(code);
                    }
                    possible = kept;
                    break;
                }
                case "end":
                    return;
                default:
                    break;
            }
        }
    }
}
