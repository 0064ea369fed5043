-- The init file of enable_test.lua: what a user's init.lua would hold, and nothing else. It
-- leaves filetype detection and plugin loading on (unlike -u NONE), puts the plugin folder on
-- the runtimepath, and puts the server named by $HIGHLIGHT_LS on PATH as `highlight-ls`.
local test_dir = vim.fn.fnamemodify(debug.getinfo(1, "S").source:sub(2), ":p:h")
vim.opt.runtimepath:prepend(vim.fn.fnamemodify(test_dir, ":h"))

local binary = os.getenv("HIGHLIGHT_LS")
if binary and binary ~= "" and vim.fn.executable(binary) == 1 then
  local path = vim.fn.exepath(binary)
  if vim.fn.fnamemodify(path, ":t") == "highlight-ls" then
    vim.env.PATH = vim.fn.fnamemodify(path, ":h") .. ":" .. vim.env.PATH
  else
    -- A binary under another name: link it as highlight-ls in a directory of its own.
    local bin = vim.fn.tempname()
    vim.fn.mkdir(bin, "p")
    vim.fn.system({ "ln", "-s", path, bin .. "/highlight-ls" })
    vim.env.PATH = bin .. ":" .. vim.env.PATH
  end
end

vim.lsp.enable("highlight-ls")
