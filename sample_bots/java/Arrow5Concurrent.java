// An honest Arrow 5 bot in Java that uses what a student's Java program
// commonly does: java.nio.file (it keeps its candidates in a file of its
// working folder and reads them back) and java.util.concurrent (a thread
// pool filters the candidates, a ConcurrentHashMap counts its moves, a
// CompletableFuture sends each answer). The plan is the starter's
// (sample_bots/java/Arrow5Starter.java); the sandbox must let all of this
// run (tests/languages.rs).
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

public class Arrow5Concurrent {
    static final String SYMBOLS = "0123456789E";
    static final Path NOTES = Path.of("candidates.txt");

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

    public static void main(String[] args) throws Exception {
        List<String> all = new ArrayList<>();
        addCodes("", all);
        Files.write(NOTES, all);
        try (FileChannel channel = FileChannel.open(NOTES, StandardOpenOption.READ)) {
            if (channel.size() == 0) throw new IOException("the notes are empty");
        }
        ExecutorService pool = Executors.newFixedThreadPool(2);
        ConcurrentHashMap<String, Integer> counts = new ConcurrentHashMap<>();
        boolean hiddenEye = false;
        Random rng = new Random(1);
        String last = null;
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
        String line;
        try {
            while ((line = in.readLine()) != null) {
                String[] words = line.trim().split("\\s+");
                counts.merge(words[0], 1, Integer::sum);
                switch (words[0]) {
                    case "arrow5":
                        hiddenEye = words[1].equals("hidden-eye");
                        rng = new Random(Long.parseLong(words[4]));
                        break;
                    case "code": {
                        List<String> possible = Files.readAllLines(NOTES);
                        String code = possible.get(rng.nextInt(possible.size()));
                        CompletableFuture.runAsync(() -> send(code), pool).get();
                        break;
                    }
                    case "attack": {
                        last = Files.readAllLines(NOTES).get(0);
                        String attack = last;
                        CompletableFuture.runAsync(() -> send(attack), pool).get();
                        break;
                    }
                    case "signal": {
                        StringBuilder marks = new StringBuilder();
                        for (int i = 1; i < words.length; i++)
                            if (!words[i].equals("-")) marks.append(words[i].replace("\u00b7", "."));
                        String want = marks.toString();
                        String attack = last;
                        boolean eye = hiddenEye;
                        List<String> possible = Files.readAllLines(NOTES);
                        int half = possible.size() / 2;
                        List<Future<List<String>>> parts = new ArrayList<>();
                        for (List<String> part : List.of(possible.subList(0, half), possible.subList(half, possible.size())))
                            parts.add(pool.submit(() -> {
                                List<String> kept = new ArrayList<>();
                                for (String code : part)
                                    if (!code.equals(attack) && signal(code, attack, eye).equals(want))
                                        kept.add(code);
                                return kept;
                            }));
                        List<String> kept = new ArrayList<>();
                        for (Future<List<String>> part : parts) kept.addAll(part.get());
                        if (!kept.isEmpty()) Files.write(NOTES, kept);
                        break;
                    }
                    case "end":
                        return;
                    default:
                        break;
                }
            }
        } finally {
            pool.shutdownNow();
            Files.deleteIfExists(NOTES);
        }
    }
}
