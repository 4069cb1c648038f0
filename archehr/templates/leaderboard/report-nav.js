
(function(){var cases=[].slice.call(document.querySelectorAll('section.case'));
function cur(){var y=window.scrollY+80,i=0;cases.forEach(function(c,j){if(c.offsetTop<=y)i=j});return i}
document.addEventListener('keydown',function(e){if(e.target.closest&&e.target.closest('input,textarea'))return;
if(e.altKey||e.ctrlKey||e.metaKey)return;var i=cur();
if(e.key==='j'&&i<cases.length-1){cases[i+1].focus();cases[i+1].scrollIntoView()}
else if(e.key==='k'&&i>0){cases[i-1].focus();cases[i-1].scrollIntoView()}});
document.addEventListener('click',function(e){var a=e.target.closest&&e.target.closest('a.cite');if(!a)return;
var t=document.getElementById(a.dataset.target);if(!t)return;e.preventDefault();
t.scrollIntoView({block:'center'});t.focus({preventScroll:true});
if(history.replaceState)history.replaceState(null,'','#'+a.dataset.target);
t.classList.remove('flash');void t.offsetWidth;t.classList.add('flash');
setTimeout(function(){t.classList.remove('flash')},2000)});})();
