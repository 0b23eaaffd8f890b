U=/work/main/.build/release/urlcache
for v in "env" "env -u TMUX" "env -u TMUX TERM=xterm-256color" ; do
  s=$(date +%s%N); for i in 1 2 3 4 5 6 7 8; do $v $U --config /tmp/fft/list.plist --cache-dir /tmp/fft/cache --exit-after-first-frame; done; e=$(date +%s%N)
  echo "[$v] $(( (e-s)/8000000 )) ms" >> /tmp/fft/out4.txt
done
s=$(date +%s%N); for i in 1 2 3 4 5 6 7 8; do /tmp/ref75/.build/release/urlcache --config /tmp/fft/list.plist --cache-dir /tmp/fft/cache --exit-after-first-frame; done; e=$(date +%s%N); echo "[old] $(( (e-s)/8000000 )) ms" >> /tmp/fft/out4.txt
s=$(date +%s%N); for i in 1 2 3 4 5 6 7 8; do chafa --size 160x48 /work/main/Benchmarks/out/earth.jpg; done; e=$(date +%s%N); echo "[chafa] $(( (e-s)/8000000 )) ms" >> /tmp/fft/out4.txt
tmux -L fft wait-for -S done
