-- How long the Neovim plugin takes to draw a large file: a benchmark driver, not a test (it
-- asserts only that every range was drawn, and prints times).
--
--   HIGHLIGHT_LS=/path/to/release/highlight-ls nvim --headless -u NONE -i NONE \
--     --cmd 'set rtp^=editors/neovim' -c 'luafile editors/neovim/test/draw_bench.lua'
--
-- Writes a file of HIGHLIGHT_LS_BENCH_LINES lines (default 40,000) with one TODO on each line,
-- opens it, and reports, for the first notification and for an edit at the top:
--   draw  the time apply_decorations takes (clearing the extmarks, placing one per range)
--   total from :edit (or the edit) until every extmark is in place, server included
-- Each is run HIGHLIGHT_LS_BENCH_RUNS times (default 5), in a fresh buffer; the median is printed.
-- With HIGHLIGHT_LS_BENCH_LINE_MARKS=1, a .highlights.json beside the file gives the `todo`
-- style a gutter sign and a whole line, so every line also gets a line-mark extmark.

local api = vim.api
local uv = vim.uv or vim.loop
local lines_wanted = tonumber(os.getenv("HIGHLIGHT_LS_BENCH_LINES") or "") or 40000
local runs = tonumber(os.getenv("HIGHLIGHT_LS_BENCH_RUNS") or "") or 5
local binary = os.getenv("HIGHLIGHT_LS") or "highlight-ls"
local line_marks = os.getenv("HIGHLIGHT_LS_BENCH_LINE_MARKS") == "1"
-- Extmarks per line: the range, and with line marks the sign and whole line's one.
local marks_per_line = line_marks and 2 or 1

local function say(message)
  io.stdout:write(message .. "\n")
end

local plugin = require("highlight-ls")
plugin.setup({ cmd = { binary } })

-- Times every call of apply_decorations that draws something.
local draw_times = {}
local apply = plugin.apply_decorations
plugin.apply_decorations = function(result)
  local start = uv.hrtime()
  local drawn, reason = apply(result)
  if drawn then
    draw_times[#draw_times + 1] = (uv.hrtime() - start) / 1e6
  end
  return drawn, reason
end

local function mark_count(bufnr)
  return #api.nvim_buf_get_extmarks(bufnr, plugin.namespace, 0, -1, {})
end

local function median(values)
  local sorted = vim.deepcopy(values)
  table.sort(sorted)
  return sorted[math.floor((#sorted + 1) / 2)]
end

local directory = vim.fn.tempname()
vim.fn.mkdir(directory, "p")
if line_marks then
  vim.fn.writefile({
    '{ "styles": { "todo": { "color": "#1a1a1a", "backgroundColor": "#f9a825", "bold": true,',
    '  "gutter": "T", "wholeLine": true } } }',
  }, directory .. "/.highlights.json")
end
local text = {}
for index = 1, lines_wanted do
  text[index] = string.format("%06d some words before the TODO and some after it", index)
end
local ok_everywhere = true
local opened, open_draws, edited, edit_draws = {}, {}, {}, {}
for run = 1, runs do
  local path = string.format("%s/large-%d.txt", directory, run)
  vim.fn.writefile(text, path)
  draw_times = {}
  local start = uv.hrtime()
  vim.cmd("edit " .. vim.fn.fnameescape(path))
  local bufnr = api.nvim_get_current_buf()
  local complete = vim.wait(120000, function()
    return mark_count(bufnr) == lines_wanted * marks_per_line
  end, 1)
  opened[#opened + 1] = (uv.hrtime() - start) / 1e6
  open_draws[#open_draws + 1] = draw_times[#draw_times] or 0
  ok_everywhere = ok_everywhere and complete

  draw_times = {}
  start = uv.hrtime()
  api.nvim_buf_set_lines(bufnr, 0, 0, false, { "FIXME a new first line" })
  complete = vim.wait(120000, function()
    return mark_count(bufnr) == lines_wanted * marks_per_line + 1 and #draw_times > 0
  end, 1)
  edited[#edited + 1] = (uv.hrtime() - start) / 1e6
  edit_draws[#edit_draws + 1] = draw_times[#draw_times] or 0
  ok_everywhere = ok_everywhere and complete
  vim.cmd("bwipeout!")
end

local version = vim.version()
say(string.format("Neovim %d.%d.%d, %d lines, one match each%s, median of %d runs:", version.major, version.minor, version.patch, lines_wanted,
  line_marks and " with a gutter sign and a whole line" or "", runs))
say(string.format("  open: draw %.1f ms, total %.1f ms (runs: %s)", median(open_draws), median(opened), table.concat(vim.tbl_map(function(v)
  return string.format("%.0f", v)
end, opened), ", ")))
say(string.format("  edit at the top: draw %.1f ms, total %.1f ms (runs: %s)", median(edit_draws), median(edited), table.concat(vim.tbl_map(function(v)
  return string.format("%.0f", v)
end, edited), ", ")))
if not ok_everywhere then
  say("FAIL: not every range was drawn in time")
end
for _, client in ipairs(plugin.clients(nil)) do
  vim.lsp.stop_client(client.id)
end
vim.cmd(ok_everywhere and "qall!" or "cquit 1")
