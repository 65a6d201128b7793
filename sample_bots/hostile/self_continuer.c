/* Fixture: continues itself while the referee has it stopped.
 *
 * Between its reply and its next request a bot may not run: once its
 * opponent has thought for 0.5 ms, the referee stops the bot's process
 * group (SIGSTOP) and continues it (SIGCONT) just before its next request.
 * But the kernel honours a SIGCONT whoever sends it, the bot itself
 * included. With the argument 1 this bot arms a POSIX timer that sends it
 * SIGCONT every millisecond, so no stop lasts, and a worker thread computes
 * all the time, on its opponent's time too. The referee reads the CPU time
 * of a stopped bot, and again when it continues it: this bot used some in
 * between, and gets the verdict crash.
 *
 * With the argument 2 it does the same, but its worker spends its time in
 * the kernel (`getrandom` of 8 MiB, again and again): next to no user
 * time, all of it system time, which computes nothing for the bot but
 * takes the CPU its opponent thinks on. It gets the verdict crash too.
 *
 * With the argument 0 (the control) it arms no timer and plays the same
 * way, its worker spinning whenever it is not stopped: it must stay ok.
 *
 * On stderr: `timer: armed` (or why not) at its first request, then at
 * each later request the CPU time its worker got since its previous reply
 * and the wall time between them (`idle: 0.412 ms of CPU in 201.3 ms`),
 * which shows whether it was stopped.
 *
 * Plays Mastermind legally: its code has no 0 (all 1s) and each of its
 * attacks is all 0s, so that against `slow_mastermind.py` (code 5-3-4-2,
 * attacks all 0s) nobody cracks and the game lasts every attack.
 *
 *     self_continuer.c 1
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>

static atomic_ulong work;
static int in_the_kernel;

/* Thinks all the time (or, with the argument 2, makes system calls all
 * the time): what it gets while the bot should be stopped is CPU taken on
 * its opponent's time. */
static void *worker(void *unused) {
    (void)unused;
    if (in_the_kernel) {
        static char noise[8 << 20];
        for (;;) getrandom(noise, sizeof noise, 0);
    }
    for (;;) atomic_fetch_add_explicit(&work, 1, memory_order_relaxed);
    return NULL;
}

/* A handler of its own for SIGCONT: with SIGCONT's default action (go on,
 * otherwise ignore) the kernel still continues the bot but queues nothing,
 * and a periodic timer is re-armed only when its signal is delivered. */
static void on_continue(int signal) { (void)signal; }

static double seconds(clockid_t clock) {
    struct timespec t;
    clock_gettime(clock, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

static timer_t timer;

/* Every millisecond from now on. Armed again at every request: the
 * referee's SIGSTOP discards a SIGCONT still pending, and the timer, whose
 * signal is then never delivered, stops for good. */
static int arm(void) {
    struct itimerspec every_ms = {{0, 1000000}, {0, 1000000}};
    return timer_settime(timer, 0, &every_ms, NULL);
}

int main(int argc, char **argv) {
    int continues_itself = argc > 1 && atoi(argv[1]) != 0;
    in_the_kernel = argc > 1 && atoi(argv[1]) == 2;
    char line[256];
    int pegs = 4;
    int started = 0;
    pthread_t thread;
    clockid_t worker_clock;
    double worker_at_reply = 0, wall_at_reply = 0;

    while (fgets(line, sizeof line, stdin)) {
        if (sscanf(line, "mastermind %d", &pegs) == 1) continue;
        if (strncmp(line, "end", 3) == 0) break;
        int code = strncmp(line, "code", 4) == 0;
        if (!code && strncmp(line, "attack", 6) != 0) continue; /* feedback */

        /* Start-up work at the first request, which the startup limit
         * covers (protocol.md, "You run only when asked"). */
        if (!started) {
            started = 1;
            if (continues_itself) {
                struct sigaction action;
                memset(&action, 0, sizeof action);
                action.sa_handler = on_continue;
                /* Restarts the read of stdin the timer interrupts. */
                action.sa_flags = SA_RESTART;
                sigaction(SIGCONT, &action, NULL);
                struct sigevent event;
                memset(&event, 0, sizeof event);
                event.sigev_notify = SIGEV_SIGNAL;
                event.sigev_signo = SIGCONT;
                if (timer_create(CLOCK_MONOTONIC, &event, &timer) != 0 || arm() != 0) {
                    perror("timer: refused");
                    continues_itself = 0;
                } else {
                    fprintf(stderr, "timer: armed\n");
                }
            } else {
                fprintf(stderr, "timer: none (control)\n");
            }
            pthread_create(&thread, NULL, worker, NULL);
            pthread_getcpuclockid(thread, &worker_clock);
        } else {
            if (continues_itself) arm();
            fprintf(stderr, "idle: %.3f ms of CPU in %.1f ms\n",
                    (seconds(worker_clock) - worker_at_reply) * 1e3,
                    (seconds(CLOCK_MONOTONIC) - wall_at_reply) * 1e3);
        }

        for (int i = 0; i < pegs; i++) {
            printf(i ? " %c" : "%c", code ? '1' : '0');
        }
        printf("\n");
        /* Read just before the reply leaves: what the worker gets from
         * here to the next request is got while idle. */
        worker_at_reply = seconds(worker_clock);
        wall_at_reply = seconds(CLOCK_MONOTONIC);
        fflush(stdout);
    }
    return 0;
}
