// Safe Cracker starter bot in Java: copy this file and make it smarter.
//
// Run it through the referee (which compiles it with javac):
//   referee match safecracker sample_bots/java/SafecrackerStarter.java target/release/safecracker_random
//   referee match safecracker sample_bots/java/SafecrackerStarter.java target/release/safecracker_random --length 5 --digits 6
//   referee bench safecracker sample_bots/java/SafecrackerStarter.java --all
// (sizes go up to 10 digits from 1-9)
// By hand: javac -d build sample_bots/java/SafecrackerStarter.java && java -cp build SafecrackerStarter
//
// The protocol (see protocol.md, Safe Cracker): one line at a time.
//   safecracker LENGTH DIGITS ROLE ATTEMPTS SEED   the game; ROLE is first, second or solo
//   code            answer with your secret code, e.g. "1 2 3"
//   guess           answer with a guess, e.g. "1 2 3"
//   feedback K      your last guess had K exact matches
//   opponent G K    the opponent guessed G (e.g. 1-2-3) and got K exact matches
//   end RESULT WHY  the game is over; stdin closes after it
// Print one line per request and flush.
//
// Strategy: guess a code that agrees with every feedback so far. With at most
// LIMIT codes it keeps them all and guesses the first one left in
// lexicographic order. With more (up to 9^10) it looks for a consistent code
// by random restarts and local search for at most BUDGET_NANOS, and plays the
// least inconsistent one found.
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

public class SafecrackerStarter {
    static final long LIMIT = 50_000; // list every code when there are at most this many
    static final long BUDGET_NANOS = 500_000_000; // for a search when there are more (limit: 2 s)

    static int length = 3, digits = 3;
    static Random rng = new Random(1);
    static List<int[]> guesses = new ArrayList<>(); // our guesses so far
    static List<Integer> matches = new ArrayList<>(); // and their exact matches

    static int exact(int[] a, int[] b) {
        int k = 0;
        for (int i = 0; i < length; i++) if (a[i] == b[i]) k++;
        return k;
    }

    static int[] randomCode() {
        int[] code = new int[length];
        for (int i = 0; i < length; i++) code[i] = 1 + rng.nextInt(digits);
        return code;
    }

    // How far `code` is from agreeing with every feedback (0: consistent).
    static int error(int[] code) {
        int total = 0;
        for (int h = 0; h < guesses.size(); h++) total += Math.abs(exact(code, guesses.get(h)) - matches.get(h));
        return total;
    }

    // Random restarts and local search: change one digit while it does not get worse.
    static int[] search() {
        long deadline = System.nanoTime() + BUDGET_NANOS;
        int[] best = randomCode();
        int bestError = error(best);
        while (bestError > 0 && System.nanoTime() < deadline) {
            int[] code = randomCode();
            int err = error(code);
            for (int step = 0; step < 20 * length && err > 0 && System.nanoTime() < deadline; step++) {
                int[] tweak = code.clone();
                tweak[rng.nextInt(length)] = 1 + rng.nextInt(digits);
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

    // Every code in lexicographic order, or none when there are more than LIMIT.
    static List<int[]> allCodes() {
        long n = 1;
        for (int i = 0; i < length && n <= LIMIT; i++) n *= digits;
        List<int[]> codes = new ArrayList<>();
        for (long k = 0; n <= LIMIT && k < n; k++) {
            int[] code = new int[length];
            long rest = k;
            for (int i = length - 1; i >= 0; i--, rest /= digits) code[i] = 1 + (int) (rest % digits);
            codes.add(code);
        }
        return codes;
    }

    static void send(int[] code) {
        StringBuilder out = new StringBuilder();
        for (int digit : code) {
            if (out.length() > 0) out.append(' ');
            out.append(digit);
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
                case "safecracker":
                    length = Integer.parseInt(words[1]);
                    digits = Integer.parseInt(words[2]);
                    rng = new Random(Long.parseLong(words[5]));
                    break;
                case "code":
                    send(randomCode());
                    break;
                case "guess":
                    if (guesses.isEmpty()) possible = allCodes();
                    last = possible.isEmpty() ? search() : possible.get(0);
                    send(last);
                    break;
                case "feedback": {
                    int k = Integer.parseInt(words[1]);
                    guesses.add(last);
                    matches.add(k);
                    List<int[]> kept = new ArrayList<>();
                    for (int[] code : possible) if (exact(code, last) == k) kept.add(code);
                    possible = kept;
                    break;
                }
                case "end":
                    return;
                default: // "opponent G K" lines are information only: nothing to answer
                    break;
            }
        }
    }
}
