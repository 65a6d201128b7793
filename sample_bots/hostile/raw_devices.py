"""Fixture: plays legal Arrow 5 attacks after trying to read the machine's
disks and memory through their device files (every block device the kernel
lists in /proc/partitions, /dev/mem, /dev/port, /dev/kmsg). A bot that keeps
uid 0 owns them, so only the sandbox stands in its way: if any of them
reads, it answers its first request with what it read (a protocol verdict),
so a test sees it."""
import os

from common import requests, play_unless

names = []
try:
    with open("/proc/partitions") as partitions:
        for line in partitions.readlines()[2:]:
            fields = line.split()
            if len(fields) == 4:
                names.append(fields[3])
except OSError:
    pass
names += ["vda", "sda", "nvme0n1", "xvda", "loop0", "zram0", "mem", "port", "kmsg"]

opened = []
for name in dict.fromkeys(names):
    try:
        fd = os.open("/dev/" + name, os.O_RDONLY | os.O_NONBLOCK)
    except OSError:
        continue
    try:
        os.read(fd, 512)
        opened.append(name)
    except OSError:
        pass
    finally:
        os.close(fd)

for request in requests():
    play_unless(opened, request)
