/*
 * Fixture (Arrow 5): answers its code, then allocates and touches memory
 * until it is stopped. Expected verdict: memory (the JVM's heap flag is
 * the cap, so the resident size passes the cap before the heap is full).
 */
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

public class MemoryHog {
    public static void main(String[] args) throws IOException {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
        List<byte[]> hoard = new ArrayList<>();
        String line;
        while ((line = in.readLine()) != null) {
            String kind = line.trim().split("\\s+")[0];
            if (kind.equals("code")) {
                System.out.println("0 1 2 3 4");
                System.out.flush();
            } else if (kind.equals("attack")) {
                while (true) {
                    byte[] block = new byte[8 << 20];
                    Arrays.fill(block, (byte) 1);
                    hoard.add(block);
                }
            }
        }
    }
}
