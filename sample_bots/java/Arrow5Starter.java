// Arrow 5 starter bot in Java: copy this file and make it smarter.
//
// Run it through the referee (which compiles it with javac):
//   referee match arrow5 sample_bots/java/Arrow5Starter.java target/release/arrow5_random
//   referee match arrow5 sample_bots/java/Arrow5Starter.java target/release/arrow5_random --variant hidden-eye
// By hand: javac -d build sample_bots/java/Arrow5Starter.java && java -cp build Arrow5Starter
//
// The protocol (see protocol.md): one line at a time from the referee.
//   arrow5 VARIANT ROLE MAX_ROUNDS SEED   the game; use SEED for randomness
//   code                                  answer with your secret code, e.g. "0 1 2 3 4"
//   attack                                answer with your attack
//   signal < . >                          the signal for your last attack ("-" = no marks)
//   end win|loss|draw REASON              the game is over; stdin closes after it
// Symbols are 0-9 and E (the eye). Print one line per request and flush.
//
// Strategy: keep every code consistent with the signals so far (all 55,440
// codes at the start) and attack with the first of them.
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

public class Arrow5Starter {
    static final String SYMBOLS = "0123456789E";

    // The marks `secret` gives `attack`: '<', '.' or '>' for each symbol of the
    // attack found in the secret; in hidden-eye the eye never gets a mark.
    static String signal(String secret, String attack, boolean hiddenEye) {
        StringBuilder marks = new StringBuilder();
        for (int i = 0; i < attack.length(); i++) {
            char s = attack.charAt(i);
            int j = secret.indexOf(s);
            if (j < 0 || (hiddenEye && s == 'E')) continue;
            marks.append(j < i ? '<' : j == i ? '.' : '>');
        }
        return marks.toString();
    }

    // Adds every code that starts with `prefix` to `out`, in lexicographic order.
    static void addCodes(String prefix, List<String> out) {
        if (prefix.length() == 5) {
            out.add(prefix);
            return;
        }
        for (char s : SYMBOLS.toCharArray())
            if (prefix.indexOf(s) < 0) addCodes(prefix + s, out);
    }

    static void send(String code) {
        System.out.println(String.join(" ", code.split("")));
        System.out.flush();
    }

    public static void main(String[] args) throws IOException {
        List<String> possible = new ArrayList<>();
        addCodes("", possible);
        boolean hiddenEye = false;
        Random rng = new Random(1);
        String last = null;
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
        String line;
        while ((line = in.readLine()) != null) {
            String[] words = line.trim().split("\\s+");
            switch (words[0]) {
                case "arrow5":
                    hiddenEye = words[1].equals("hidden-eye");
                    rng = new Random(Long.parseLong(words[4]));
                    break;
                case "code":
                    send(possible.get(rng.nextInt(possible.size())));
                    break;
                case "attack":
                    last = possible.get(0);
                    send(last);
                    break;
                case "signal": {
                    StringBuilder marks = new StringBuilder();
                    for (int i = 1; i < words.length; i++)
                        if (!words[i].equals("-")) marks.append(words[i].replace("\u00b7", "."));
                    List<String> kept = new ArrayList<>();
                    for (String code : possible)
                        if (!code.equals(last) && signal(code, last, hiddenEye).equals(marks.toString()))
                            kept.add(code);
                    if (!kept.isEmpty()) possible = kept; // never empty, whatever the referee said
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
